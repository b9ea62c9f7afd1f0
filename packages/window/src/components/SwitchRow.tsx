/**
 * A card's head with an on/off switch: the heading, a line on what turning it on does, and an
 * ARIA `role="switch"` button named by the heading and described by the line (Settings ›
 * Integrations' listener, Settings › Desktop's reminder).
 */
import type { ComponentChildren } from 'preact';
import { useT } from '../i18n/index.ts';

/** The heading `${id}-heading`, the description `${id}-desc`, and the switch beside them. */
export function SwitchRow({
  id,
  title,
  on,
  busy,
  onToggle,
  children,
}: {
  id: string;
  title: string;
  on: boolean;
  busy: boolean;
  onToggle(): void;
  children: ComponentChildren;
}) {
  const t = useT();
  return (
    <div class="switch-row">
      <div>
        <h2 id={`${id}-heading`}>{title}</h2>
        <p class="muted section-intro" id={`${id}-desc`}>
          {children}
        </p>
      </div>
      <button
        type="button"
        role="switch"
        class="switch"
        aria-checked={on}
        aria-labelledby={`${id}-heading`}
        aria-describedby={`${id}-desc`}
        disabled={busy}
        onClick={onToggle}
      >
        <span class="switch-track" aria-hidden="true">
          <span class="switch-thumb" />
        </span>
        <span class="switch-text" aria-hidden="true">
          {on ? t('switch.on') : t('switch.off')}
        </span>
      </button>
    </div>
  );
}
