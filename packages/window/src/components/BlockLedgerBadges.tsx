/**
 * A block's tags and billable flag as badges beside its activity (Today's list, History's
 * week): `#review`, `billable`, and a lock with the invoice's number when it is on one
 * (docs/ui.md "Invoices": it cannot change until that invoice is voided). Tags are shown as
 * typed; nothing when the block has none of these.
 */
import { useT } from '../i18n/index.ts';
import type { Block } from '../types.ts';

/** The badges of `block`'s tags and, when it is billable, `billable`. */
export function BlockLedgerBadges({ block }: { block: Pick<Block, 'tags' | 'billable' | 'invoice'> }) {
  const t = useT();
  return (
    <>
      {block.invoice !== undefined && (
        <span class="badge invoiced" data-testid="invoice-badge" title={t('badge.invoiceTitle', { invoice: block.invoice })}>
          <span aria-hidden="true">🔒 </span>
          <span class="visually-hidden">{t('badge.lockedOnInvoice')} </span>
          {block.invoice}
        </span>
      )}
      {block.billable && (
        <span class="badge billable" data-testid="billable-badge">
          {t('badge.billable')}
        </span>
      )}
      {block.tags.map((tag) => (
        <span key={tag} class="badge tag" data-testid="tag-badge">
          <span aria-hidden="true">#</span>
          <span class="visually-hidden">{t('badge.tag')} </span>
          {tag}
        </span>
      ))}
    </>
  );
}
