import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import { isProblem } from '@tock/protocol';
import { License, issueLicenseKey, licensePublicKey, parsePublicKey, verifyLicenseKey, type LicensePayload } from '../src/license.ts';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');

function licenseAt(clock: { now: number }, firstRunMs = T0) {
  let key: string | undefined;
  const license = new License({
    clock: () => clock.now,
    publicKey,
    storage: { firstRunMs: () => firstRunMs, installedKey: () => key, installKey: (k) => (key = k) },
  });
  return { license, installed: () => key };
}

const payload = (expires: string | null): LicensePayload => ({ licensee: 'Ana', issued: '2026-11-01T00:00:00.000Z', expires });

describe('license', () => {
  it('is a trial for 14 days from the first run, then locked', () => {
    const clock = { now: T0 };
    const { license } = licenseAt(clock);
    assert.equal(license.state(), 'trial');
    assert.equal(license.info().daysLeft, 14);
    clock.now = T0 + 14 * DAY - 1;
    assert.equal(license.state(), 'trial');
    clock.now = T0 + 14 * DAY;
    assert.equal(license.state(), 'locked');
  });

  it('becomes licensed when a valid key is activated, at once', () => {
    const clock = { now: T0 + 20 * DAY };
    const { license } = licenseAt(clock);
    assert.equal(license.state(), 'locked');
    const info = license.activate(issueLicenseKey(payload(null), privateKey));
    assert.equal(info.state, 'licensed');
    assert.equal(license.state(), 'licensed');
    assert.equal(license.info().licensee, 'Ana');
  });

  it('locks at the moment an installed key expires, without a restart', () => {
    const clock = { now: T0 };
    const { license } = licenseAt(clock);
    const expires = new Date(T0 + 30 * DAY).toISOString();
    license.activate(issueLicenseKey(payload(expires), privateKey));
    clock.now = T0 + 30 * DAY - 1;
    assert.equal(license.state(), 'licensed');
    clock.now = T0 + 30 * DAY;
    assert.equal(license.state(), 'locked');
  });

  it('refuses a key signed by another key and changes nothing', () => {
    const clock = { now: T0 };
    const { license, installed } = licenseAt(clock);
    assert.throws(() => license.activate(issueLicenseKey(payload(null), other.privateKey)), (error: unknown) => isProblem(error, 'license_invalid'));
    assert.equal(installed(), undefined);
    assert.equal(license.state(), 'trial');
  });

  it('refuses an already expired key and changes nothing', () => {
    const clock = { now: T0 + DAY };
    const { license, installed } = licenseAt(clock);
    const key = issueLicenseKey(payload(new Date(T0).toISOString()), privateKey);
    assert.throws(() => license.activate(key), /expired/);
    assert.equal(installed(), undefined);
  });

  it('refuses a key whose payload was altered', () => {
    const key = issueLicenseKey(payload(null), privateKey);
    const [, sig] = key.split('.');
    const forged = Buffer.from(JSON.stringify({ ...payload(null), licensee: 'Mallory' })).toString('base64url') + '.' + sig;
    assert.throws(() => verifyLicenseKey(forged, publicKey), /does not verify/);
  });

  it('refuses keys that are not of the form payload.signature', () => {
    for (const bad of ['', 'abc', 'a.b.c', '.', 'abc.']) assert.throws(() => verifyLicenseKey(bad, publicKey), (error: unknown) => isProblem(error, 'license_invalid'));
  });

  it('sends each refusal of a key by its rule beside the English line, for the window and tock to word', () => {
    const said = (attempt: () => unknown): unknown => {
      try {
        attempt();
      } catch (error) {
        assert.ok(isProblem(error, 'license_invalid'));
        assert.equal(error.details?.[0]?.message, error.message);
        return { line: error.details?.[0]?.line, message: error.message };
      }
      assert.fail('not refused');
    };
    assert.deepEqual(said(() => verifyLicenseKey('abc', publicKey)), {
      line: { rule: 'licenseNotKey' },
      message: 'that is not a Tock license key (expected two base64url parts joined by "."); paste the whole key',
    });
    assert.deepEqual(said(() => verifyLicenseKey(issueLicenseKey(payload(null), other.privateKey), publicKey)), {
      line: { rule: 'licenseSignature' },
      message: 'the license key signature does not verify; check that you pasted the key exactly as issued',
    });
    assert.deepEqual(said(() => parsePublicKey('not a key')), {
      line: { rule: 'licensePublicKey' },
      message: 'TOCK_LICENSE_PUBLIC_KEY is neither a PEM SPKI key nor base64 of a 32-byte Ed25519 key; fix or unset it',
    });
    const clock = { now: T0 + 40 * DAY };
    const { license } = licenseAt(clock);
    const expired = { ...payload(null), expires: '2026-11-30T00:00:00.000Z' };
    assert.deepEqual(said(() => license.activate(issueLicenseKey(expired, privateKey))), {
      line: { rule: 'licenseExpired', values: { day: '2026-11-30T00:00:00.000Z' } },
      message: 'this license key expired on 2026-11-30T00:00:00.000Z; ask the issuer for a current key',
    });
  });

  it('refuses a signed payload that lacks fields', () => {
    const bytes = Buffer.from(JSON.stringify({ licensee: 'Ana' }));
    const key = bytes.toString('base64url') + '.' + sign(null, bytes, privateKey).toString('base64url');
    assert.throws(() => verifyLicenseKey(key, publicKey), /lacks/);
  });

  it('reads TOCK_LICENSE_PUBLIC_KEY as PEM or as base64 of the raw 32 bytes', () => {
    const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
    const key = issueLicenseKey(payload(null), privateKey);
    assert.equal(verifyLicenseKey(key, licensePublicKey({ TOCK_LICENSE_PUBLIC_KEY: pem })).licensee, 'Ana');
    assert.equal(verifyLicenseKey(key, licensePublicKey({ TOCK_LICENSE_PUBLIC_KEY: raw })).licensee, 'Ana');
    assert.throws(() => parsePublicKey('bm90IGEga2V5'), /TOCK_LICENSE_PUBLIC_KEY/);
  });

  it('does not accept test keys against the built-in vendor key', () => {
    const key = issueLicenseKey(payload(null), privateKey);
    assert.throws(() => verifyLicenseKey(key, licensePublicKey({})), /does not verify/);
  });
});
