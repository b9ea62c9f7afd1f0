/**
 * History: log a block after the fact (by duration or start–end), a week's chart of daily
 * totals per activity, and that week's sessions and entries, each editable and deletable
 * in place. The app validates exactly as the API does; its messages show next to the field.
 * The parts are in history/: LogForm.tsx, Week.tsx (with its rows) and BlockEditor.tsx.
 */
import { ScreenHead } from '../components/ScreenHead.tsx';
import { useT } from '../i18n/index.ts';
import { LogForm } from './history/LogForm.tsx';
import { Week } from './history/Week.tsx';

/** The History screen. */
export function History() {
  const t = useT();
  return (
    <div class="screen">
      <ScreenHead title={t('screen.history')}>{t('history.intro')}</ScreenHead>
      <LogForm />
      <Week />
    </div>
  );
}
