/**
 * The tray on Linux (docs/desktop.md "The tray"): a StatusNotifierItem with a
 * `com.canonical.dbusmenu` menu on the session bus, registered with
 * `org.kde.StatusNotifierWatcher` whenever one is on the bus — at start, and again each time a
 * watcher appears (its NameOwnerChanged). Without a watcher the item waits, exported, for one
 * to appear: nothing polls and nothing fails. Without a session bus there is no tray.
 *
 * Its bus (docs/desktop.md "The tray", "Its bus"): a connection the session bus reader dropped
 * (a message over 1 MiB: dbus/connection.ts) is made again and the item registers again, at most
 * once a second. Clicks — `Activate` and the menu's `Event`/`EventGroup` — count only from a
 * tray host: the connection that owns `org.kde.StatusNotifierWatcher`, or one that owns a
 * `org.kde.StatusNotifierHost-*` / `org.freedesktop.StatusNotifierHost-*` name, as the bus
 * itself says at that moment; anyone else is refused (`AccessDenied`) and nothing happens
 * (docs/decisions.md "Only a tray host clicks the tray").
 *
 * Two mistakes other trays made are avoided: every property is served on whatever name a host
 * calls (the unique name as well as the well-known one), since the item answers by object path;
 * and the menu is never empty (tray-model.ts).
 */
import type { Tray, TrayAction, TrayFactory, TrayHooks, TrayModel, TrayState } from './tray.ts';
import { type BusConnection, type BusMessage, openBusConnection } from '../dbus/connection.ts';
import { layoutValue, MenuIds, menuNodes, propertyList, walk, type MenuNode } from './dbus-menu.ts';
import { ITEM_INTROSPECTION, MENU_INTROSPECTION } from './tray-introspection.ts';
import { ACCESS_DENIED, answerCommon, INVALID_ARGS, UNKNOWN_METHOD } from '../dbus/object.ts';
import { isTrayHost, WATCHER } from './tray-hosts.ts';
import { ITEM_PATH, itemProperties, MENU_PATH, menuProperties } from './tray-properties.ts';

export { ITEM_PATH, MENU_PATH } from './tray-properties.ts';
const ITEM_IFACE = 'org.kde.StatusNotifierItem';
const MENU_IFACE = 'com.canonical.dbusmenu';
const WATCHER_PATH = '/StatusNotifierWatcher';

/** The least time between two connections to the bus: a peer that keeps getting the connection dropped gets one a second. */
export const RECONNECT_GAP_MS = 1_000;

/** What {@link statusNotifierTray} needs besides the hooks. */
export interface StatusNotifierOptions {
  env: NodeJS.ProcessEnv;
  /** The directory with Tock's hicolor theme (`IconThemePath`), for hosts that look there. */
  iconThemePath?: string;
  /** Where a failure is reported (one line; the tray then shows nothing). */
  onError?: (message: string) => void;
  /** The bus (tests: default the session bus of `env`). */
  connect?: (env: NodeJS.ProcessEnv) => Promise<BusConnection | null>;
  /** A monotonic clock in ms, for the gap between connections (default `performance.now`). */
  clock?: () => number;
}


/** The StatusNotifierItem tray; see the module comment. */
export function statusNotifierTray(options: StatusNotifierOptions): TrayFactory {
  return (hooks) => new StatusNotifierTray(options, hooks);
}

/** Items made by this process so far: each gets a name of its own (`org.kde.StatusNotifierItem-PID-N`). */
let itemsMade = 0;

/** The StatusNotifierItem tray itself (tests reach `ready` and the names through it). */
export class StatusNotifierTray implements Tray {
  readonly #options: StatusNotifierOptions;
  readonly #onAction: (action: TrayAction) => void;
  readonly #onStateChange: () => void;
  readonly #onNeedModel: () => void;
  readonly #ids = new MenuIds();
  readonly #clock: () => number;
  #ready: Promise<void>;
  /** When the last connection was begun (the clock's ms). */
  #connectedAtMs = Number.NEGATIVE_INFINITY;
  #reconnectTimer: NodeJS.Timeout | null = null;
  #connections = 0;
  #bus: BusConnection | null = null;
  #state: TrayState = 'unavailable';
  #closed = false;
  #model: TrayModel | null = null;
  #menu: MenuNode = { id: 0, properties: { 'children-display': ['s', 'submenu'] }, children: [] };
  #actions = new Map<number, TrayAction>();
  #menuJson = '';
  #revision = 1;
  readonly #wellKnownName = `org.kde.StatusNotifierItem-${process.pid}-${++itemsMade}`;
  #serviceName = '';

  constructor(options: StatusNotifierOptions, hooks: TrayHooks) {
    this.#options = options;
    this.#onAction = hooks.onAction;
    this.#onStateChange = hooks.onStateChange;
    this.#onNeedModel = hooks.onNeedModel ?? (() => {});
    this.#clock = options.clock ?? (() => performance.now());
    this.#ready = this.#connect();
  }

  /** Connects (again) and exports the item; a failure leaves the tray `unavailable`. */
  #connect(): Promise<void> {
    this.#connectedAtMs = this.#clock();
    this.#connections++;
    return this.#start().catch((error: unknown) => {
      this.#options.onError?.(`tray: ${error instanceof Error ? error.message : String(error)}`);
      this.#bus?.close();
      this.#setState('unavailable');
    });
  }

  /** How many connections to the bus the tray has made (tests: 2 after one was dropped). */
  get connections(): number {
    return this.#connections;
  }

  /**
   * The connection was dropped under the tray (the bus went, or a message over the limit came
   * in): connect again, a second after the last connection at the earliest. Without a bus the
   * tray stays `unavailable`, as at start.
   */
  #reconnect(why: string | undefined): void {
    if (this.#closed || this.#reconnectTimer !== null) return;
    if (why) this.#options.onError?.(`tray: ${why}; connecting to the session bus again`);
    const wait = Math.max(0, this.#connectedAtMs + RECONNECT_GAP_MS - this.#clock());
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = null;
      if (this.#closed) return;
      this.#serviceName = '';
      this.#ready = this.#connect();
    }, wait);
    this.#reconnectTimer.unref();
  }

  /** Resolves once the item is exported (and registered, when a watcher runs). Tests wait on it. */
  get ready(): Promise<void> {
    return this.#ready;
  }

  /** The name the item registered under: its well-known name, or its unique name if that was taken. */
  get serviceName(): string {
    return this.#serviceName;
  }

  /** The connection's unique name (`:1.42`), on which the item answers as well. */
  get uniqueName(): string {
    return this.#bus?.uniqueName ?? '';
  }

  state(): TrayState {
    return this.#state;
  }

  show(model: TrayModel): void {
    const previous = this.#model;
    if (model === previous) return;
    this.#model = model;
    this.#rebuildMenu();
    if (!this.#bus) return;
    const bus = this.#bus;
    // Before the first model the item showed the defaults of #itemProperties.
    const before = previous ?? { status: 'Passive', icon: 'tock-idle', statusLine: 'Tock' };
    if (model.status !== before.status) bus.signal(ITEM_PATH, ITEM_IFACE, 'NewStatus', 's', [model.status]);
    if (model.icon !== before.icon) bus.signal(ITEM_PATH, ITEM_IFACE, 'NewIcon', '', []);
    if (model.statusLine !== before.statusLine || model.icon !== before.icon) bus.signal(ITEM_PATH, ITEM_IFACE, 'NewToolTip', '', []);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#reconnectTimer !== null) clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = null;
    await this.#ready;
    this.#bus?.close();
    this.#bus = null;
  }

  #setState(state: TrayState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.#onStateChange();
  }

  #rebuildMenu(): void {
    const model = this.#model;
    if (!model) return;
    const children = menuNodes(model.menu, this.#ids, '');
    const json = JSON.stringify(children);
    if (json === this.#menuJson) return;
    this.#menuJson = json;
    this.#menu = { ...this.#menu, children };
    const actions = new Map<number, TrayAction>();
    walk(children, (node) => {
      if (node.action) actions.set(node.id, node.action);
    });
    this.#actions = actions;
    this.#revision++;
    this.#bus?.signal(MENU_PATH, MENU_IFACE, 'LayoutUpdated', 'ui', [this.#revision, 0]);
  }

  async #start(): Promise<void> {
    const bus = await (this.#options.connect ?? openBusConnection)(this.#options.env);
    if (!bus) return; // no session bus: no tray, nothing else changes
    if (this.#closed) {
      bus.close();
      return;
    }
    this.#bus = bus;
    bus.onClose((why) => {
      if (this.#bus !== bus) return;
      this.#bus = null;
      if (this.#closed) return;
      this.#setState('unavailable');
      this.#reconnect(why);
    });
    bus.serve(ITEM_PATH, (call) => this.#itemCall(bus, call));
    bus.serve(MENU_PATH, (call) => this.#menuCall(bus, call));
    bus.onSignal((signal) => {
      // The bus's own signal only: anyone can send a signal to this connection.
      if (signal.sender !== 'org.freedesktop.DBus' || signal.member !== 'NameOwnerChanged' || signal.interface !== 'org.freedesktop.DBus') return;
      const [name, , newOwner] = (signal.body ?? []) as string[];
      if (name !== WATCHER || this.#serviceName === '') return; // before that, the start below looks itself
      if (newOwner) void this.#register(bus);
      else this.#setState('no-host');
    });
    await bus.call({
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'AddMatch',
      signature: 's',
      body: [`type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='${WATCHER}'`],
    });
    // DO_NOT_QUEUE (4). The name carries this process's ID; should it be taken all the same
    // (a process of the same ID in another PID namespace), the unique name serves instead.
    const [granted] = await bus.call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'RequestName', signature: 'su', body: [this.#wellKnownName, 4] });
    this.#serviceName = granted === 1 ? this.#wellKnownName : bus.uniqueName;
    const [hasWatcher] = await bus.call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'NameHasOwner', signature: 's', body: [WATCHER] });
    if (hasWatcher) await this.#register(bus);
    else this.#setState('no-host');
  }

  /** Asks the app for a model when there is none yet: a host is about to read the item or its menu. */
  #ensureModel(): void {
    if (this.#model === null) this.#onNeedModel();
  }

  async #register(bus: BusConnection): Promise<void> {
    this.#ensureModel();
    try {
      await bus.call({ destination: WATCHER, path: WATCHER_PATH, interface: WATCHER, member: 'RegisterStatusNotifierItem', signature: 's', body: [this.#serviceName] });
      if (this.#bus === bus) this.#setState('shown');
    } catch (error) {
      // A watcher that went away meanwhile: its successor's NameOwnerChanged brings us back.
      if (this.#bus === bus) this.#setState('no-host');
      this.#options.onError?.(`tray: the StatusNotifierWatcher refused the item (${error instanceof Error ? error.message : String(error)})`);
    }
  }

  #itemCall(bus: BusConnection, call: BusMessage): void {
    this.#ensureModel();
    if (answerCommon(bus, call, ITEM_IFACE, () => itemProperties(this.#model, this.#options.iconThemePath), ITEM_INTROSPECTION)) return;
    if (call.interface !== undefined && call.interface !== ITEM_IFACE) {
      bus.fail(call, UNKNOWN_METHOD, `no method ${String(call.member)}`);
      return;
    }
    switch (call.member) {
      case 'Activate':
        this.#fromHost(bus, call, () => {
          bus.reply(call, '', []);
          this.#onAction({ kind: 'open' });
        });
        return;
      case 'SecondaryActivate':
      case 'ContextMenu':
      case 'Scroll':
        // The menu is the host's to show (ItemIsMenu false, Menu set); nothing else to do.
        bus.reply(call, '', []);
        return;
      default:
        bus.fail(call, UNKNOWN_METHOD, `no method ${String(call.member)}`);
    }
  }

  /**
   * Runs `click` when `call` comes from a tray host (see the module comment), else refuses it
   * with `AccessDenied`. The bus answers who owns the names, at the moment of the click: a
   * unique name cannot be taken by another connection, and the daemon sets every sender.
   */
  #fromHost(bus: BusConnection, call: BusMessage, click: () => void): void {
    void isTrayHost(bus, call.sender).then(
      (host) => {
        if (this.#bus !== bus) return;
        if (host) click();
        else bus.fail(call, ACCESS_DENIED, 'only the tray host (the StatusNotifierWatcher or a StatusNotifierHost) clicks the tray');
      },
      () => bus.fail(call, ACCESS_DENIED, 'the tray could not tell who clicked'),
    );
  }

  #findNode(id: number): MenuNode | undefined {
    if (id === 0) return this.#menu;
    let found: MenuNode | undefined;
    walk(this.#menu.children, (node) => {
      if (node.id === id) found = node;
    });
    return found;
  }

  #click(id: number, eventId: string): boolean {
    const node = this.#findNode(id);
    if (!node) return false;
    const action = this.#actions.get(id);
    if (eventId === 'clicked' && action) {
      // After the reply: a host waits for it, and Quit Tock ends the process.
      setImmediate(() => this.#onAction(action));
    }
    return true;
  }

  #menuCall(bus: BusConnection, call: BusMessage): void {
    this.#ensureModel();
    if (answerCommon(bus, call, MENU_IFACE, () => menuProperties(this.#options.iconThemePath), MENU_INTROSPECTION)) return;
    if (call.interface !== undefined && call.interface !== MENU_IFACE) {
      bus.fail(call, UNKNOWN_METHOD, `no method ${String(call.member)}`);
      return;
    }
    const body = (call.body ?? []) as unknown[];
    switch (call.member) {
      case 'GetLayout': {
        const [parentId, depth, names] = body as [number, number, string[]];
        const node = this.#findNode(parentId);
        if (!node) {
          bus.fail(call, INVALID_ARGS, `no menu item ${parentId}`);
          return;
        }
        bus.reply(call, 'u(ia{sv}av)', [this.#revision, layoutValue(node, depth < 0 ? Number.POSITIVE_INFINITY : depth, names ?? [])]);
        return;
      }
      case 'GetGroupProperties': {
        const [ids, names] = body as [number[], string[]];
        const nodes: MenuNode[] = [];
        if (ids.length === 0) walk([this.#menu], (node) => nodes.push(node));
        else for (const id of ids) {
          const node = this.#findNode(id);
          if (node) nodes.push(node);
        }
        bus.reply(call, 'a(ia{sv})', [nodes.map((node) => [node.id, propertyList(node.properties, names ?? [])])]);
        return;
      }
      case 'GetProperty': {
        const [id, name] = body as [number, string];
        const value = this.#findNode(id)?.properties[name];
        if (value) bus.reply(call, 'v', [value]);
        else bus.fail(call, INVALID_ARGS, `no property ${name} on menu item ${id}`);
        return;
      }
      case 'Event': {
        const [id, eventId] = body as [number, string];
        this.#fromHost(bus, call, () => {
          if (this.#click(id, eventId)) bus.reply(call, '', []);
          else bus.fail(call, INVALID_ARGS, `no menu item ${id}`);
        });
        return;
      }
      case 'EventGroup': {
        const [events] = body as [[number, string][]];
        this.#fromHost(bus, call, () => {
          const missing = events.filter(([id, eventId]) => !this.#click(id, eventId)).map(([id]) => id);
          bus.reply(call, 'ai', [missing]);
        });
        return;
      }
      case 'AboutToShow':
        bus.reply(call, 'b', [false]);
        return;
      case 'AboutToShowGroup':
        bus.reply(call, 'aiai', [[], []]);
        return;
      default:
        bus.fail(call, UNKNOWN_METHOD, `no method ${String(call.member)}`);
    }
  }
}
