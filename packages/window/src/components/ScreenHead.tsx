/**
 * The head of every screen: its heading (focused when the screen changes, hence
 * `tabIndex={-1}`) and one muted line on what the screen is for.
 */
import type { ComponentChildren } from 'preact';

/** A screen's `h1` and the line under it. */
export function ScreenHead({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <header class="screen-head">
      <h1 tabIndex={-1}>{title}</h1>
      <p class="muted">{children}</p>
    </header>
  );
}
