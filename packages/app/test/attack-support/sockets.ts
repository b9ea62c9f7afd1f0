/**
 * The network sockets a process holds, read from Linux's /proc: its file descriptors name
 * socket inodes, and /proc/<pid>/net/{tcp,tcp6,udp,udp6,raw,raw6} say what each inode is.
 * Unix-domain sockets (the admin channel) are not network sockets and are left out.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** One network socket of the process. */
export interface NetSocket {
  table: string;
  local: string;
  remote: string;
  /** `LISTEN`, `ESTABLISHED`, … (TCP), or the raw hex state. */
  state: string;
}

const TCP_STATES: Record<string, string> = {
  '01': 'ESTABLISHED',
  '02': 'SYN_SENT',
  '03': 'SYN_RECV',
  '04': 'FIN_WAIT1',
  '05': 'FIN_WAIT2',
  '06': 'TIME_WAIT',
  '07': 'CLOSE',
  '08': 'CLOSE_WAIT',
  '09': 'LAST_ACK',
  '0A': 'LISTEN',
  '0B': 'CLOSING',
};

/** `0100007F:9BEF` → `127.0.0.1:39919` (IPv4); IPv6 addresses are kept as hex. */
function address(hex: string): string {
  const [ip, port] = hex.split(':') as [string, string];
  const p = Number.parseInt(port, 16);
  if (ip.length !== 8) return `[${ip}]:${p}`;
  const bytes = ip.match(/../g)!.map((b) => Number.parseInt(b, 16)).reverse();
  return `${bytes.join('.')}:${p}`;
}

/** The inodes of the sockets among the process's file descriptors. */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const match = /^socket:\[(\d+)\]$/.exec(link);
      if (match) inodes.add(match[1] as string);
    } catch {
      // closed between readdir and readlink
    }
  }
  return inodes;
}

/** Every TCP, UDP and raw socket (IPv4 and IPv6) that process `pid` holds right now. */
export function networkSockets(pid: number): NetSocket[] {
  const inodes = socketInodes(pid);
  const found: NetSocket[] = [];
  for (const table of ['tcp', 'tcp6', 'udp', 'udp6', 'raw', 'raw6']) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || !inodes.has(cols[9] as string)) continue;
      const state = cols[3] as string;
      found.push({
        table,
        local: address(cols[1] as string),
        remote: address(cols[2] as string),
        state: table.startsWith('tcp') ? (TCP_STATES[state] ?? state) : state,
      });
    }
  }
  return found;
}

/**
 * What a loopback-only process may hold: listening TCP sockets on 127.0.0.1, and connections
 * between 127.0.0.1 and 127.0.0.1 whose local port is one it listens on (accepted, not dialled).
 * Returns the sockets that break that rule.
 */
export function outboundOrExposed(sockets: NetSocket[]): NetSocket[] {
  const listening = new Set(sockets.filter((s) => s.table === 'tcp' && s.state === 'LISTEN').map((s) => s.local));
  return sockets.filter((s) => {
    if (s.table !== 'tcp') return true; // no IPv6, UDP or raw socket at all
    if (s.state === 'LISTEN') return !s.local.startsWith('127.0.0.1:');
    const localPort = s.local.split(':')[1];
    return !(s.local.startsWith('127.0.0.1:') && s.remote.startsWith('127.0.0.1:') && listening.has(`127.0.0.1:${localPort}`));
  });
}
