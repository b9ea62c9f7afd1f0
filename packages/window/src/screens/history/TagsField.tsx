/**
 * A block's tags in History's editor (docs/ui.md "History"): each tag a chip with a remove
 * button, then a field that adds them. A comma, typed or pasted, ends a tag; Enter adds what is
 * typed; Backspace in the empty field removes the last tag. A tag in double quotes keeps its
 * commas (`"Smith, Jones"`). A tag already there (case ignored) is not added again; what is
 * still typed when the block is saved counts as added.
 */
import { useRef, useState } from 'preact/hooks';
import { describedByError, FieldError } from '../../components/FieldError.tsx';
import { useT } from '../../i18n/index.ts';
import { tagsAddedLine } from '../../list-lines.ts';

/** `"…"` around a tag taken off, and the spaces around it. */
function cleanTag(part: string): string {
  let tag = part.trim();
  if (tag.startsWith('"')) tag = tag.slice(1);
  if (tag.endsWith('"')) tag = tag.slice(0, -1);
  return tag.trim();
}

/**
 * `text` read as tags: the ones a comma outside quotes has ended (`done`, empty ones left
 * out) and what follows the last such comma (`rest`, as typed).
 */
export function splitTags(text: string): { done: string[]; rest: string } {
  const done: string[] = [];
  let quoted = false;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      const tag = cleanTag(text.slice(from, i));
      if (tag !== '') done.push(tag);
      from = i + 1;
    }
  }
  return { done, rest: text.slice(from) };
}

/** Every tag `text` holds, its last one included (what Enter or a save adds). */
export function tagsIn(text: string): string[] {
  const { done, rest } = splitTags(text);
  const last = cleanTag(rest);
  return last === '' ? done : [...done, last];
}

/** `tags` with `more` after them, each once (case ignored). */
export function withTags(tags: readonly string[], more: readonly string[]): string[] {
  const all = [...tags];
  for (const tag of more) if (!all.some((t) => t.toLowerCase() === tag.toLowerCase())) all.push(tag);
  return all;
}

/**
 * The chips of `tags` and the field `id` whose text is `draft`; `onChange` gets the new list
 * and text together. `error` shows under it (the app's refusal of a tag).
 */
export function TagsField({
  id,
  tags,
  draft,
  error,
  onChange,
}: {
  id: string;
  tags: string[];
  draft: string;
  error: string | undefined;
  onChange(tags: string[], draft: string): void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const t = useT();
  const [said, setSaid] = useState('');
  const add = (more: string[], rest: string): void => {
    const next = withTags(tags, more);
    if (next.length > tags.length) setSaid(tagsAddedLine(t, next.slice(tags.length)));
    onChange(next, rest);
  };
  const remove = (tag: string): void => {
    setSaid(t('tags.removed', { tag }));
    onChange(
      tags.filter((t) => t !== tag),
      draft,
    );
  };
  const onInput = (e: Event): void => {
    const field = e.target as HTMLInputElement;
    const { done, rest } = splitTags(field.value);
    if (done.length === 0) {
      onChange(tags, rest);
      return;
    }
    // The field shows what is left at once, even when nothing else changes (a tag there already).
    field.value = rest.trimStart();
    add(done, field.value);
  };
  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.key === 'Enter' && draft.trim() !== '') {
      // Enter adds what is typed; with nothing typed it saves the block, as in any field.
      e.preventDefault();
      add(tagsIn(draft), '');
    } else if (e.key === 'Backspace' && draft === '' && tags.length > 0) {
      e.preventDefault();
      remove(tags[tags.length - 1] as string);
    }
  };
  return (
    <div class="field wide">
      <label for={id}>
        {t('tags.label')} <span class="muted">{t('tags.hint')}</span>
      </label>
      <div class="tags-input">
        {tags.length > 0 && (
          <ul class="tag-chips">
            {tags.map((tag) => (
              <li key={tag} class="badge tag tag-chip" data-testid="tag-chip">
                {tag}
                <button
                  type="button"
                  class="tag-remove"
                  onClick={() => {
                    remove(tag);
                    input.current?.focus();
                  }}>
                  <span aria-hidden="true">×</span>
                  <span class="visually-hidden">{t('tags.remove', { tag })}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          ref={input}
          id={id}
          type="text"
          value={draft}
          placeholder={tags.length === 0 ? t('tags.placeholder') : ''}
          {...describedByError(error, `${id}-error`)}
          onInput={onInput}
          onKeyDown={onKeyDown}
        />
      </div>
      <span class="visually-hidden" role="status">
        {said}
      </span>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
