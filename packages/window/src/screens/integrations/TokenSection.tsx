/**
 * Settings › Integrations: the listener's token (hidden until revealed; copy; rotate after
 * confirming) and where it is kept.
 */
import { useEffect, useState } from 'preact/hooks';
import { messageOf, request } from '../../api.ts';
import { reasonText } from '../../problem-words.ts';
import { Failure } from '../../components/FormActions.tsx';
import { CODE, WithCode } from '../../components/WithCode.tsx';
import { useT } from '../../i18n/index.ts';
import type { TokenView } from '../../types.ts';

export function TokenSection({ token }: { token: TokenView }) {
  const t = useT();
  const [shown, setShown] = useState<string | null>(null);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [storeChoice, setStoreChoice] = useState<'os' | 'file'>(token.kind);
  useEffect(() => setStoreChoice(token.kind), [token.kind]);
  // A token shown on screen is hidden again when it changes or when the window is left.
  useEffect(() => setShown(null), [token.exists]);

  const reveal = async (): Promise<string | null> => {
    try {
      const { token: value } = await request('POST /api/token/reveal');
      return value;
    } catch (e) {
      setFailure(messageOf(e));
      return null;
    }
  };
  const copy = async (): Promise<void> => {
    setFailure(null);
    const value = shown ?? (await reveal());
    if (!value) return;
    try {
      await navigator.clipboard.writeText(value);
      setMessage(t('int.tokenCopied'));
    } catch {
      setFailure(t('int.copyRefusedToken'));
    }
  };
  const rotate = async (): Promise<void> => {
    setFailure(null);
    try {
      await request('POST /api/token/rotate');
      setShown(null);
      setConfirmRotate(false);
      setMessage(t('int.rotated'));
    } catch (e) {
      setFailure(messageOf(e));
    }
  };
  const chooseStore = async (kind: 'os' | 'file'): Promise<void> => {
    setFailure(null);
    try {
      const { renewed } = await request('POST /api/credential-store', { body: { kind } });
      const where = kind === 'file' ? t('int.inFile') : t('int.inStore');
      setMessage(renewed ? t('int.renewed', { where }) : t('int.keptNow', { where }));
    } catch (e) {
      setFailure(messageOf(e));
      setStoreChoice(token.kind);
    }
  };

  return (
    <section class="card" aria-labelledby="token-heading">
      <h2 id="token-heading">{t('int.tokenHeading')}</h2>
      <p class="muted section-intro">{t('int.tokenIntro')}</p>
      <Failure message={reasonText(token.errorBecause) ?? token.error} />
      {token.exists ? (
        <div class="token-row">
          <label for="token-value" class="visually-hidden">
            {t('int.tokenHeading')}
          </label>
          {shown ? (
            <input id="token-value" class="token-value" type="text" readOnly value={shown} data-testid="token-value" />
          ) : (
            <input id="token-value" class="token-value" type="password" readOnly value="hidden-token-placeholder" data-testid="token-value" />
          )}
          <button type="button" onClick={async () => (shown ? setShown(null) : setShown(await reveal()))}>
            {shown ? t('int.hide') : t('int.reveal')}
          </button>
          <button type="button" onClick={() => void copy()}>
            {t('int.copy')}
          </button>
          {!confirmRotate && (
            <button type="button" class="ghost" onClick={() => setConfirmRotate(true)}>
              {t('int.rotate')}
            </button>
          )}
        </div>
      ) : (
        <p class="muted">{t('int.noToken')}</p>
      )}
      {confirmRotate && (
        <div class="confirm" role="group" aria-labelledby="rotate-question">
          <p id="rotate-question">
            <strong>{t('int.replaceQ')}</strong> {t('int.replaceText')}
          </p>
          <div class="actions">
            <button type="button" class="danger" onClick={() => void rotate()}>
              {t('int.rotateToken')}
            </button>
            <button type="button" class="ghost" onClick={() => setConfirmRotate(false)}>
              {t('int.cancel')}
            </button>
          </div>
        </div>
      )}
      <p role="status" class="success">
        {message}
      </p>
      <Failure message={failure} />

      <fieldset class="store-choice">
        <legend>{t('int.whereKept')}</legend>
        {token.notice && (
          <div class="store-notice" role="note" data-testid="store-notice">
            <p>{t('int.storeNotice')}</p>
            {token.kind === 'file' && (
              <button type="button" onClick={() => void chooseStore('file')}>
                {t('int.keepFile')}
              </button>
            )}
          </div>
        )}
        <p class="muted small-print">
          {t('int.now')}
          {token.kind === 'file' && token.path !== null ? (
            <span data-testid="token-store">
              <WithCode text={t('int.storeFile', { path: CODE })} code={token.path} />
            </span>
          ) : (
            // The OS store's name is a product's (Secret Service, macOS Keychain): marked as the app's English.
            <span data-testid="token-store" lang="en">
              {token.store}
            </span>
          )}
        </p>
        <label class="radio-card">
          <input type="radio" name="store" value="os" checked={storeChoice === 'os'} onChange={() => setStoreChoice('os')} />
          <span>
            <strong>{t('int.osStore')}</strong> <span class="badge">{t('int.recommended')}</span>
            <span class="muted block">{t('int.osStoreHint')}</span>
          </span>
        </label>
        <label class="radio-card">
          <input type="radio" name="store" value="file" checked={storeChoice === 'file'} onChange={() => setStoreChoice('file')} />
          <span>
            <strong>{t('int.fileStore')}</strong>
            <span class="muted block">{t('int.fileStoreHint')}</span>
          </span>
        </label>
        {storeChoice !== token.kind && (
          <button type="button" onClick={() => void chooseStore(storeChoice)}>
            {storeChoice === 'file' ? t('int.keepInFile') : t('int.keepInStore')}
          </button>
        )}
      </fieldset>
    </section>
  );
}
