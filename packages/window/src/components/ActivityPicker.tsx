/**
 * Search-as-you-type for activities (an ARIA 1.2 combobox): typing lists the best matches
 * (the app's own search: exact, prefix, word prefix, substring), and offers to create the
 * activity when nothing matches exactly. Arrow keys move, Enter picks, Escape closes.
 *
 * The list only ever holds matches for the text in the field: until the app's matches for new
 * text come (a search 60 ms after the last key), the last ones that still contain the text
 * stand in, and the first option is highlighted again. Enter in that time asks the app for the
 * best match of the text, as Enter with the list closed does — never a match of the text typed
 * before, nor the row a pointer once rested on.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { request } from '../api.ts';
import { colorClass } from '../colors.ts';
import { useT } from '../i18n/index.ts';
import type { ActivityRef } from '../types.ts';

/** What the user chose: an existing activity, or a new one to create. */
export type Pick = { activityID: string; activityName: string } | { create: string };

type Option = { kind: 'existing'; ref: ActivityRef } | { kind: 'create'; name: string };

interface Props {
  id: string;
  label: string;
  placeholder?: string;
  /** Text shown in the field (controlled). */
  value: string;
  onInput(value: string): void;
  onPick(pick: Pick): void;
  /** Extra ids for aria-describedby (hints, errors). */
  describedBy?: string;
  invalid?: boolean;
  inputRef?: { current: HTMLInputElement | null };
  disabled?: boolean;
}

function fold(s: string): string {
  return s.normalize('NFC').toLocaleLowerCase();
}

/**
 * How many matches the list shows: what fits under the field without scrolling. Within the
 * protocol's search limits (`LIMITS.searchLimitMin`–`searchLimitMax`), which the app enforces.
 */
const SUGGESTIONS = 8;

/**
 * What Enter in the field picks for `text` when its list is closed: the activity of exactly
 * that name, else the best match, else a new activity. Asked of the app, for a form whose
 * other field was submitted (Today's note).
 */
export async function bestPick(text: string): Promise<Pick | null> {
  const trimmed = text.trim();
  if (!trimmed) return null;
  const refs = await request('GET /api/activities', { query: { limit: SUGGESTIONS, q: trimmed } });
  const best = refs.find((r) => fold(r.activityName) === fold(trimmed)) ?? refs[0];
  return best ? { ...best } : { create: trimmed };
}

/** The activity search field with its suggestion list. */
export function ActivityPicker(props: Props) {
  const t = useT();
  // The app's matches, with the text (trimmed) they are the matches of.
  const [found, setFound] = useState<{ q: string; refs: ActivityRef[] }>({ q: '', refs: [] });
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const seq = useRef(0);
  const listId = `${props.id}-list`;
  const query = props.value;

  useEffect(() => {
    if (!open) return;
    const mine = ++seq.current;
    const q = query.trim();
    const timer = setTimeout(() => {
      request('GET /api/activities', { query: { limit: SUGGESTIONS, q } }).then((refs) => {
          if (mine === seq.current) {
            setFound({ q, refs });
            setActive(0);
          }
        })
        .catch(() => {});
    }, 60);
    return () => clearTimeout(timer);
  }, [query, open]);

  const trimmed = query.trim();
  // Until the app answers for this text: the last matches that contain it (none for an empty field).
  const answered = found.q === trimmed;
  const results = answered ? found.refs : trimmed ? found.refs.filter((r) => fold(r.activityName).includes(fold(trimmed))) : [];
  const exact = results.some((r) => fold(r.activityName) === fold(trimmed));
  const options: Option[] = results.map((ref) => ({ kind: 'existing', ref }) as Option);
  if (trimmed && !exact) options.push({ kind: 'create', name: trimmed });
  const current = options[Math.min(active, options.length - 1)];

  const choose = (option: Option | undefined): void => {
    if (!option) return;
    setOpen(false);
    props.onPick(option.kind === 'existing' ? { ...option.ref } : { create: option.name });
  };
  /** Enter before the app's matches for the text came: the app's best match for it. */
  const chooseBest = (text: string): void => {
    setOpen(false);
    bestPick(text).then(
      (pick) => {
        if (pick) props.onPick(pick);
      },
      () => {},
    );
  };

  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) setOpen(true);
      else setActive((i) => Math.min(i + 1, options.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (e.key === 'Enter') {
      if (!trimmed && !open) return;
      e.preventDefault();
      if (trimmed && !answered) {
        chooseBest(trimmed);
        return;
      }
      // Enter on typed text picks the highlighted match; an exact name always wins.
      const exactOption = options.find((o) => o.kind === 'existing' && fold(o.ref.activityName) === fold(trimmed));
      choose(open ? current : (exactOption ?? options[0] ?? (trimmed ? { kind: 'create', name: trimmed } : undefined)));
    } else if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        setOpen(false);
      }
    }
  };

  const showList = open && options.length > 0;
  const optionId = (i: number): string => `${props.id}-opt-${i}`;

  return (
    <div class="picker">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        ref={props.inputRef}
        type="text"
        role="combobox"
        autocomplete="off"
        spellcheck={false}
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && current ? optionId(options.indexOf(current)) : undefined}
        aria-describedby={props.describedBy}
        aria-invalid={props.invalid || undefined}
        placeholder={props.placeholder}
        value={query}
        disabled={props.disabled}
        onInput={(e) => {
          props.onInput((e.target as HTMLInputElement).value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA 1.2 combobox's listbox; a ul keeps the list semantics without script */}
      <ul id={listId} role="listbox" aria-label={t('picker.suggestions', { label: props.label })} class="picker-list" hidden={!showList}>
        {options.map((o, i) => (
          // biome-ignore lint/a11y/useFocusableInteractive: the combobox keeps focus in its field and points at the option with aria-activedescendant
          // biome-ignore lint/a11y/useKeyWithClickEvents: the field handles the keys (arrows, Enter, Escape); a click is the pointer's way to pick
          <li
            key={o.kind === 'existing' ? o.ref.activityID : 'create'}
            id={optionId(i)}
            // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: an option of the listbox above
            role="option"
            aria-selected={o === current}
            class={o === current ? 'active' : undefined}
            onMouseDown={(e) => e.preventDefault()}
            onMouseMove={() => setActive(i)}
            onClick={() => choose(o)}
          >
            {o.kind === 'existing' ? (
              <>
                <span class={`swatch ${colorClass(o.ref.activityID)}`} aria-hidden="true" />
                {o.ref.activityName}
              </>
            ) : (
              <>
                <span class="plus" aria-hidden="true">+</span>
                {t('picker.create', { name: o.name })}
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
