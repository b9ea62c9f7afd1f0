/**
 * Settings › Capture's suggestion rules (docs/ui.md "Settings › Capture"): the rules in order —
 * the first that matches a captured span labels it — each with what it labels over the last 7
 * days, Move up and Move down, Edit and Delete, and a form to add one. A form shows,
 * as it is typed, what its rule would label over the same days (tried as if it were first). The
 * app checks every pattern and the activity; a refusal shows under its field and nothing changes.
 */
import { useEffect, useState } from 'preact/hooks';
import { request, messageOf } from '../../api.ts';
import { describedByError, FieldError, fieldErrorsOf, type FieldErrors } from '../../components/FieldError.tsx';
import { Failure, FormActions } from '../../components/FormActions.tsx';
import { codeMark, WithCode } from '../../components/WithCode.tsx';
import { type MessageKey, useT } from '../../i18n/index.ts';
import { useLoaded } from '../../load.ts';
import { blocksChanged, useAppState } from '../../state.ts';
import { RULE_FIELDS, type RuleField, type RuleTest, type SuggestionRule } from '../../types.ts';
import { labelled, matchText } from './rule-text.ts';

/** Each span field's label in the form. */
const FIELD_LABELS: Record<RuleField, MessageKey> = {
  app: 'rules.app',
  title: 'rules.title',
  project: 'rules.project',
  branch: 'rules.branch',
  source: 'rules.source',
  language: 'rules.language',
  entity: 'rules.entity',
};
/** The order the form shows them in: the ones most rules use first. */
const FORM_FIELDS: readonly RuleField[] = ['app', 'title', 'project', 'branch', 'language', 'entity', 'source'];

/** What a saved rule labels, loaded again whenever blocks or rules change. */
function SavedPreview({ rule }: { rule: SuggestionRule }) {
  const t = useT();
  const { blocksVersion } = useAppState();
  const { data, error } = useLoaded(() => request('GET /api/rules/:id/test', { params: { id: rule.id } }), [rule.id, blocksVersion], null as RuleTest | null);
  return (
    <p class="muted rule-preview" data-testid="rule-preview">
      {error ?? (data ? t('rules.labels', { what: labelled(t, data) }) : '…')}
    </p>
  );
}

type Fields = Record<RuleField | 'activity', string>;

function fieldsOf(rule: SuggestionRule | null): Fields {
  const fields = { activity: rule?.activity ?? '' } as Fields;
  for (const f of RULE_FIELDS) fields[f] = rule?.match[f] ?? '';
  return fields;
}

function bodyOf(fields: Fields): { match: Record<string, string>; activity: string } {
  const match: Record<string, string> = {};
  for (const f of RULE_FIELDS) if (fields[f].trim() !== '') match[f] = fields[f].trim();
  return { match, activity: fields.activity.trim() };
}

/** The live preview of a rule being written: tried a moment after the typing stops. */
function useDraftPreview(fields: Fields): string | null {
  const t = useT();
  const [text, setText] = useState<string | null>(null);
  const body = bodyOf(fields);
  const key = JSON.stringify(body);
  useEffect(() => {
    if (Object.keys(body.match).length === 0 || body.activity === '') {
      setText(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      request('POST /api/rules/test', { body }).then(
        (test) => live && setText(t('rules.wouldLabel', { what: labelled(t, test) })),
        (e: unknown) => live && setText(t('rules.cannotTry', { reason: messageOf(e) })),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key]);
  return text;
}

/** The fields of a rule for adding or editing; `idp` keeps their IDs apart. */
function RuleForm({ rule, idp, submitText, onDone }: { rule: SuggestionRule | null; idp: string; submitText: string; onDone(): void }) {
  const t = useT();
  const [fields, setFields] = useState<Fields>(fieldsOf(rule));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const preview = useDraftPreview(fields);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setDone(null);
    setFailure(null);
    setBusy(true);
    try {
      const saved = rule ? await request('PATCH /api/rules/:id', { params: { id: rule.id }, body: bodyOf(fields) }) : await request('POST /api/rules', { body: bodyOf(fields) });
      setErrors({});
      setDone(rule ? t('rules.saved') : t('rules.added', { match: matchText(saved.match), activity: saved.activity }));
      if (!rule) setFields(fieldsOf(null));
      blocksChanged();
      onDone();
    } catch (err) {
      const f = fieldErrorsOf(err);
      if (f) setErrors(f);
      else setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const set = (key: keyof Fields) => (e: Event) => setFields({ ...fields, [key]: (e.target as HTMLInputElement).value });
  return (
    <form class="rule-form" onSubmit={(e) => void submit(e)} aria-label={rule ? t('rules.editRule', { match: matchText(rule.match) }) : t('rules.addRule')} noValidate>
      <div class="rule-fields">
        {FORM_FIELDS.map((f) => (
          <div class="field" key={f}>
            <label for={`${idp}-${f}`}>{t(FIELD_LABELS[f])}</label>
            <input
              id={`${idp}-${f}`}
              type="text"
              autocomplete="off"
              spellcheck={false}
              value={fields[f]}
              {...describedByError(errors[f] ?? errors.match, errors[f] ? `${idp}-${f}-error` : `${idp}-match-error`)}
              onInput={set(f)}
            />
            <FieldError id={`${idp}-${f}-error`} message={errors[f]} alert />
          </div>
        ))}
      </div>
      <FieldError id={`${idp}-match-error`} message={errors.match} alert />
      <div class="field">
        <label for={`${idp}-activity`}>{t('rules.suggestAs')}</label>
        <input id={`${idp}-activity`} type="text" autocomplete="off" value={fields.activity} {...describedByError(errors.activity, `${idp}-activity-error`)} onInput={set('activity')} />
        <FieldError id={`${idp}-activity-error`} message={errors.activity} alert />
      </div>
      <p class="muted rule-preview" aria-live="polite" data-testid="rule-draft-preview">
        {preview}
      </p>
      <FormActions busy={busy} done={done} failure={failure} primary={!rule}>
        {submitText}
      </FormActions>
    </form>
  );
}

function RuleRow({ rule, index, count }: { rule: SuggestionRule; index: number; count: number }) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const what = matchText(rule.match);
  const act = async (work: () => Promise<unknown>): Promise<void> => {
    setFailure(null);
    try {
      await work();
      blocksChanged();
    } catch (e) {
      setFailure(messageOf(e));
    }
  };
  // Positions count from 1: moving up puts it at its own index.
  const move = (at: number) => act(() => request('PATCH /api/rules/:id', { params: { id: rule.id }, body: { at } }));
  return (
    <li class="rule-row" data-testid="rule-row">
      <div class="rule-main">
        <span class="rule-text">
          <span class="muted">{index + 1}.</span> {what} → <strong>{rule.activity}</strong>
        </span>
        <span class="row-actions">
          <button type="button" class="ghost small" disabled={index === 0} onClick={() => void move(index)}>
            {t('rules.moveUp')}
            <span class="visually-hidden">{t('rules.theRule', { match: what })}</span>
          </button>
          <button type="button" class="ghost small" disabled={index === count - 1} onClick={() => void move(index + 2)}>
            {t('rules.moveDown')}
            <span class="visually-hidden">{t('rules.theRule', { match: what })}</span>
          </button>
          <button type="button" class="ghost small" aria-expanded={editing} onClick={() => setEditing(!editing)}>
            {t('rules.edit')}
            <span class="visually-hidden">{t('rules.theRule', { match: what })}</span>
          </button>
          <button type="button" class="ghost small" onClick={() => void act(() => request('DELETE /api/rules/:id', { params: { id: rule.id } }))}>
            {t('rules.delete')}
            <span class="visually-hidden">{t('rules.theRule', { match: what })}</span>
          </button>
        </span>
      </div>
      <SavedPreview rule={rule} />
      {editing && <RuleForm rule={rule} idp={`rule-${rule.id}`} submitText={t('rules.saveRule')} onDone={() => setEditing(false)} />}
      <Failure message={failure} />
    </li>
  );
}

/** The rules section of Settings › Capture. */
export function SuggestionRules() {
  const t = useT();
  const { blocksVersion } = useAppState();
  const { data: rules, error } = useLoaded(() => request('GET /api/rules'), [blocksVersion], null as SuggestionRule[] | null);
  return (
    <section class="card" aria-labelledby="rules-heading">
      <h2 id="rules-heading">{t('rules.heading')}</h2>
      <p class="muted section-intro">
        <WithCode text={t('rules.intro', { any: codeMark('any'), one: codeMark('one') })} codes={{ any: '*', one: '?' }} />
      </p>
      <Failure message={error} />
      {rules && rules.length === 0 && <p class="muted">{t('rules.none')}</p>}
      {rules && rules.length > 0 && (
        <ol class="rule-list" data-testid="rule-list">
          {rules.map((r, i) => (
            <RuleRow key={`${r.id}|${JSON.stringify(r.match)}|${r.activity}`} rule={r} index={i} count={rules.length} />
          ))}
        </ol>
      )}
      <h3 class="rule-add-heading">{t('rules.addHeading')}</h3>
      <RuleForm rule={null} idp="new-rule" submitText={t('rules.add')} onDone={() => {}} />
    </section>
  );
}
