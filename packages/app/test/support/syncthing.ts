/**
 * Test support: a real Syncthing (Debian `syncthing`) that talks to the other test instance
 * only. Its configuration is written before its first start — `syncthing generate`, then
 * edited: a static 127.0.0.1 listen address and peer address, global and local discovery off,
 * relays off, NAT traversal and STUN off, usage and crash reporting off, upgrades off, the
 * GUI/REST on 127.0.0.1 — and it runs with `STNOUPGRADE=1` and a HOME of its own. Never start
 * one with defaults: it would announce itself on the LAN. {@link processSockets} lists any
 * socket of its process outside 127.0.0.0/8 (from /proc), for the test to check there is none.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A generated (not yet started) Syncthing home. */
export interface SyncthingHome {
  home: string;
  deviceID: string;
  port: number;
  guiPort: number;
  apiKey: string;
}

/** Runs `syncthing generate` in `home` and reads the new device's id. */
export function generate(home: string, port: number, guiPort: number): SyncthingHome {
  mkdirSync(home, { recursive: true });
  const run = spawnSync('syncthing', ['generate', `--home=${home}`, '--no-default-folder', '--skip-port-probing'], {
    env: { PATH: process.env.PATH, HOME: home, STNOUPGRADE: '1' },
    encoding: 'utf8',
  });
  const out = `${run.stdout}${run.stderr}`;
  if (run.status !== 0) throw new Error(`syncthing generate failed: ${out}`);
  const config = readFileSync(join(home, 'config.xml'), 'utf8');
  const deviceID = /<device id="([A-Z0-9-]+)"/.exec(config)?.[1] ?? /Device ID: ([A-Z0-9-]+)/.exec(out)?.[1];
  if (!deviceID) throw new Error(`syncthing generate printed no device id: ${out}`);
  return { home, deviceID, port, guiPort, apiKey: `tock-test-${port}` };
}

function setOption(config: string, tag: string, value: string): string {
  const pattern = new RegExp(`<${tag}>[^<]*</${tag}>`);
  if (!pattern.test(config)) throw new Error(`config.xml has no <${tag}>`);
  return config.replace(pattern, `<${tag}>${value}</${tag}>`);
}

/** Edits the generated config: loopback only, nothing announced or reported, one shared folder with `peer`. */
export function configure(self: SyncthingHome, peer: SyncthingHome, folder: string): void {
  const path = join(self.home, 'config.xml');
  let config = readFileSync(path, 'utf8');
  const options: Record<string, string> = {
    listenAddress: `tcp://127.0.0.1:${self.port}`,
    globalAnnounceServer: '',
    globalAnnounceEnabled: 'false',
    localAnnounceEnabled: 'false',
    relaysEnabled: 'false',
    natEnabled: 'false',
    startBrowser: 'false',
    urAccepted: '-1',
    urURL: '',
    crashReportingEnabled: 'false',
    crashReportingURL: '',
    autoUpgradeIntervalH: '0',
    releasesURL: '',
    announceLANAddresses: 'false',
    stunKeepaliveStartS: '0',
    stunKeepaliveMinS: '0',
    stunServer: '',
    reconnectionIntervalS: '1',
  };
  for (const [tag, value] of Object.entries(options)) config = setOption(config, tag, value);
  config = config.replace(/(<gui [^>]*>\s*<address>)[^<]*(<\/address>\s*<apikey>)[^<]*(<\/apikey>)/, `$1127.0.0.1:${self.guiPort}$2${self.apiKey}$3`);
  const peerDevice = `<device id="${peer.deviceID}" name="peer" compression="metadata" introducer="false" skipIntroductionRemovals="false" introducedBy="">
        <address>tcp://127.0.0.1:${peer.port}</address>
        <paused>false</paused>
        <autoAcceptFolders>false</autoAcceptFolders>
    </device>
    <folder id="tock" label="tock" path="${folder}" type="sendreceive" rescanIntervalS="5" fsWatcherEnabled="true" fsWatcherDelayS="1" ignorePerms="false" autoNormalize="true">
        <filesystemType>basic</filesystemType>
        <device id="${self.deviceID}" introducedBy=""></device>
        <device id="${peer.deviceID}" introducedBy=""></device>
        <minDiskFree unit="%">0</minDiskFree>
        <markerName>.stfolder</markerName>
    </folder>
    <gui `;
  config = config.replace('<gui ', peerDevice);
  mkdirSync(join(folder, '.stfolder'), { recursive: true });
  writeFileSync(path, config, { mode: 0o600 });
}

/** Starts `syncthing serve` on a configured home. */
export function serve(self: SyncthingHome): ChildProcess {
  return spawn('syncthing', ['serve', `--home=${self.home}`, '--no-browser', '--no-restart', '--no-upgrade'], {
    env: { PATH: process.env.PATH, HOME: self.home, STNOUPGRADE: '1', STNORESTART: '1', STNODEFAULTFOLDER: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** `pid` and every process below it (Syncthing runs its work in a child of a monitor process). */
function withDescendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...(parents.get(out[i] as number) ?? []));
  return out;
}

/** Is this `/proc/net` address (hex) in 127.0.0.0/8 (IPv4, or IPv4 mapped into IPv6)? */
function loopback(hex: string): boolean {
  const [ip] = hex.split(':') as [string];
  if (ip.length === 8) return ip.slice(6, 8) === '7F';
  if (ip.length === 32) return ip.slice(0, 24) === '0000000000000000FFFF0000' && ip.slice(30, 32) === '7F';
  return false;
}

/** Is it the unspecified address with port 0 (a socket not connected to anything)? */
function unconnected(hex: string): boolean {
  return /^0+:0000$/.test(hex);
}

/**
 * The TCP and UDP sockets of process `pid`: `all` of them, and those whose local address is not
 * in 127.0.0.0/8 or whose peer is neither unset nor in 127.0.0.0/8 (`foreign`), as
 * `proto local -> remote` lines.
 */
export function processSockets(pid: number): { all: string[]; foreign: string[] } {
  const inodes = new Set<string>();
  for (const p of withDescendants(pid)) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${p}/fd`);
    } catch {
      continue; // gone meanwhile
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${p}/fd/${fd}`));
        if (m) inodes.add(m[1] as string);
      } catch {
        // closed meanwhile
      }
    }
  }
  const found: string[] = [];
  const all: string[] = [];
  for (const proto of ['tcp', 'tcp6', 'udp', 'udp6']) {
    let table: string;
    try {
      table = readFileSync(`/proc/${pid}/net/${proto}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of table.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || !inodes.has(cols[9] as string)) continue;
      const local = cols[1] as string;
      const remote = cols[2] as string;
      all.push(`${proto} ${local} -> ${remote}`);
      if (!loopback(local) || !(unconnected(remote) || loopback(remote))) found.push(`${proto} ${local} -> ${remote}`);
    }
  }
  return { all, foreign: found };
}
