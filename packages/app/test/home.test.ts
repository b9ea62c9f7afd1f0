import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDirs } from '@tock/test-support';
import { ensureHome, homePaths, resolveHome } from '../src/home.ts';

const tempDir = tempDirs();

describe('Tock home', () => {
  it('is TOCK_HOME when set, on every platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      assert.equal(resolveHome({ TOCK_HOME: '/data/tock', HOME: '/home/ana' }, platform), '/data/tock');
    }
  });

  it('follows XDG on Linux', () => {
    assert.equal(resolveHome({ HOME: '/home/ana' }, 'linux'), '/home/ana/.local/share/tock');
    assert.equal(resolveHome({ HOME: '/home/ana', XDG_DATA_HOME: '/xdg' }, 'linux'), '/xdg/tock');
  });

  it('is Application Support on macOS and APPDATA on Windows', () => {
    assert.equal(resolveHome({ HOME: '/Users/ana' }, 'darwin'), '/Users/ana/Library/Application Support/Tock');
    assert.equal(resolveHome({ HOME: 'C:/Users/ana', APPDATA: 'C:/Users/ana/AppData/Roaming' }, 'win32'), join('C:/Users/ana/AppData/Roaming', 'Tock'));
  });

  it('holds tock.db, the admin socket and the token file, and is created owner-only', () => {
    const dir = join(tempDir('tock-home-'), 'nested', 'home');
    ensureHome(dir);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const paths = homePaths(dir);
    assert.deepEqual([paths.database, paths.adminSocket, paths.tokenFile], [join(dir, 'tock.db'), join(dir, 'tock.sock'), join(dir, 'listener-token')]);
  });
});
