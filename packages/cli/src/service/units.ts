/**
 * What `tock service install` writes, per platform (docs/desktop.md "Start at login"): a
 * systemd user unit, an XDG autostart entry, a macOS LaunchAgent, a Windows logon task. Pure:
 * each takes the absolute Node and `tock` paths and the Tock home, and returns the file's
 * text with every value quoted by that format's own rules. Each file carries
 * {@link SERVICE_MARKER}, so `uninstall` removes only what `install` wrote.
 */

/** What the service runs: the same Node and `tock` as the command that installed it. */
export interface ServiceCommand {
  /** Absolute path of the Node binary (`process.execPath`). */
  node: string;
  /** Absolute path of `bin/tock.js`. */
  cli: string;
  /** `TOCK_HOME` when one was set (absolute), else undefined: the service uses the default home. */
  home: string | undefined;
}

/** A line in every file Tock writes, by which uninstall recognises its own. */
export const SERVICE_MARKER = 'Written by `tock service install`';

/** The systemd unit's and the autostart entry's name. */
export const SYSTEMD_UNIT_NAME = 'tock.service';
/** The LaunchAgent's label (and file name, with `.plist`). */
export const LAUNCH_AGENT_LABEL = 'app.tock.Tock';
/** The Windows scheduled task's name. */
export const WINDOWS_TASK_NAME = 'Tock';

/**
 * The arguments after the Node binary: the app in the background, which opens no window and
 * prints no launch code, so the journal or log file that keeps its output holds no secret.
 */
function appArgs(command: ServiceCommand): string[] {
  return [command.cli, 'app', '--background'];
}

/** systemd quoting: double quotes, `\` and `"` escaped, `%` doubled (specifiers), `$` doubled (variables). */
export function systemdQuote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$')}"`;
}

/** The systemd user unit: restarted on failure, part of the user's default target. */
export function systemdUnit(command: ServiceCommand): string {
  const lines = [
    `# ${SERVICE_MARKER}; remove it with \`tock service uninstall\`.`,
    '[Unit]',
    'Description=Tock time tracker',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${[command.node, ...appArgs(command)].map(systemdQuote).join(' ')}`,
  ];
  if (command.home !== undefined) lines.push(`Environment=${systemdQuote(`TOCK_HOME=${command.home}`)}`);
  lines.push('Restart=on-failure', 'RestartSec=2', '', '[Install]', 'WantedBy=default.target', '');
  return lines.join('\n');
}

/**
 * Desktop Entry `Exec` quoting: arguments with reserved characters in double quotes, with
 * `"`, `` ` ``, `$` and `\` escaped; `%` doubled (field codes); then the string-level escape
 * of `\` that every Desktop Entry value gets.
 */
export function desktopExecQuote(value: string): string {
  const quoted = /^[A-Za-z0-9_./:=+,@-]+$/.test(value) ? value : `"${value.replace(/(["`$\\])/g, '\\$1')}"`;
  return quoted.replace(/%/g, '%%').replace(/\\/g, '\\\\');
}

/** The XDG autostart entry: started by the desktop session at login (no restart on crash). */
export function autostartEntry(command: ServiceCommand): string {
  const argv = [...(command.home !== undefined ? ['env', `TOCK_HOME=${command.home}`] : []), command.node, ...appArgs(command)];
  return [
    `# ${SERVICE_MARKER}; remove it with \`tock service uninstall\`.`,
    '[Desktop Entry]',
    'Type=Application',
    'Name=Tock',
    'Comment=Time tracker, started at login',
    `Exec=${argv.map(desktopExecQuote).join(' ')}`,
    'Terminal=false',
    'NoDisplay=true',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The macOS LaunchAgent: run at load, kept alive when it exits unsuccessfully (a crash). */
export function launchAgentPlist(command: ServiceCommand, logFile: string): string {
  const args = [command.node, ...appArgs(command)].map((a) => `    <string>${xml(a)}</string>`).join('\n');
  const env =
    command.home === undefined
      ? ''
      : `  <key>EnvironmentVariables</key>\n  <dict>\n    <key>TOCK_HOME</key>\n    <string>${xml(command.home)}</string>\n  </dict>\n`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- ${SERVICE_MARKER}; remove it with \`tock service uninstall\`. -->
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${LAUNCH_AGENT_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
${args}
  </array>
${env}  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>ProcessType</key>
  <string>Interactive</string>
  <key>StandardOutPath</key>
  <string>${xml(logFile)}</string>
  <key>StandardErrorPath</key>
  <string>${xml(logFile)}</string>
</dict>
</plist>
`;
}

/** Windows command-line quoting for one argument (CommandLineToArgvW rules). */
export function windowsQuote(value: string): string {
  if (value !== '' && !/[\s"]/.test(value)) return value;
  return `"${value.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
}

/**
 * The Windows logon task (Task Scheduler XML): starts at the user's logon, restarted up to
 * 999 times a minute apart when it fails. The task has no environment of its own, so a set
 * `TOCK_HOME` goes through `cmd.exe /c set`.
 */
export function windowsLogonTask(command: ServiceCommand, userId: string): string {
  const direct = [command.node, ...appArgs(command)].map(windowsQuote).join(' ');
  const [program, args] =
    command.home === undefined
      ? [command.node, appArgs(command).map(windowsQuote).join(' ')]
      : ['cmd.exe', `/d /c "set "TOCK_HOME=${command.home}" && ${direct}"`];
  return `<?xml version="1.0" encoding="UTF-16"?>
<!-- ${SERVICE_MARKER}; remove it with \`tock service uninstall\`. -->
<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">
  <RegistrationInfo>
    <Description>${xml(`Tock time tracker. ${SERVICE_MARKER}.`)}</Description>
  </RegistrationInfo>
  <Triggers>
    <LogonTrigger>
      <Enabled>true</Enabled>
      <UserId>${xml(userId)}</UserId>
    </LogonTrigger>
  </Triggers>
  <Principals>
    <Principal id="Author">
      <UserId>${xml(userId)}</UserId>
      <LogonType>InteractiveToken</LogonType>
      <RunLevel>LeastPrivilege</RunLevel>
    </Principal>
  </Principals>
  <Settings>
    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>
    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>
    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>
    <ExecutionTimeLimit>PT0S</ExecutionTimeLimit>
    <RestartOnFailure>
      <Interval>PT1M</Interval>
      <Count>999</Count>
    </RestartOnFailure>
    <Hidden>true</Hidden>
  </Settings>
  <Actions Context="Author">
    <Exec>
      <Command>${xml(program)}</Command>
      <Arguments>${xml(args)}</Arguments>
    </Exec>
  </Actions>
</Task>
`;
}
