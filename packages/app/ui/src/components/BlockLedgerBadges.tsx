/**
 * A block's tags and billable flag as badges beside its activity (Today's list, History's
 * week): `#review`, `billable`. Tags are shown as typed; nothing when the block has neither.
 */
import type { Block } from '../types.ts';

/** The badges of `block`'s tags and, when it is billable, `billable`. */
export function BlockLedgerBadges({ block }: { block: Pick<Block, 'tags' | 'billable'> }) {
  return (
    <>
      {block.billable && (
        <span class="badge billable" data-testid="billable-badge">
          billable
        </span>
      )}
      {block.tags.map((tag) => (
        <span key={tag} class="badge tag" data-testid="tag-badge">
          <span aria-hidden="true">#</span>
          <span class="visually-hidden">tag </span>
          {tag}
        </span>
      ))}
    </>
  );
}
