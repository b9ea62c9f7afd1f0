/**
 * The width a chart is drawn at, in CSS pixels: an SVG chart whose viewBox is as wide as the
 * box it is shown in is never scaled, so its text is drawn at its CSS size at every window
 * width (docs/ui.md "Every size": chart text at least 11 px at 360 px). A chart with a fixed
 * viewBox scaled to a phone drew 12 px ticks at about 5 px.
 */
import type { RefObject } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/** A ref for the chart's `<svg>` (or any box) and its drawn width (`fallback` until it is laid out). */
export function useChartWidth<E extends Element = SVGSVGElement>(fallback: number): [RefObject<E | null>, number] {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = (): void => {
      const w = Math.floor(box.getBoundingClientRect().width);
      if (w > 0) setWidth(w);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
