import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cliMessages, loadCliMessages } from '../src/i18n/index.ts';
import { captureReason } from '../src/source-words.ts';

describe('capture sources in the person’s language', () => {
  // A variable that is not set is all the reason says: XDG_RUNTIME_DIR missing under Hyprland
  // is not "another kind of session".
  const unset = { reason: 'XDG_RUNTIME_DIR is not set, so the Hyprland socket cannot be found', reasonCode: 'not_set', reasonValues: { variable: 'XDG_RUNTIME_DIR' } };

  it('a variable that is not set is named, and nothing more is claimed', async () => {
    assert.equal(captureReason(cliMessages('en'), unset), 'XDG_RUNTIME_DIR is not set');
    assert.equal(captureReason(await loadCliMessages('de'), unset), 'XDG_RUNTIME_DIR ist nicht gesetzt');
    assert.equal(captureReason(await loadCliMessages('ja'), unset), 'XDG_RUNTIME_DIR が設定されていません');
  });

  it('a reason without a code keeps the app’s English line', () => {
    assert.equal(captureReason(cliMessages('en'), { reason: 'the stand-in is off', reasonCode: undefined }), 'the stand-in is off');
  });
});
