/** The CLI's Japanese messages: the desktop's idle sources, what each needs, capture sources and why one does not work (terms as docs/glossary/ja.md has them). */
import type { Catalog } from '@tock/i18n';
import type { sources as en } from '../en/sources.ts';

export const sources = {
  'sources.idle.mutter': 'GNOME（Mutter のアイドルモニター）',
  'sources.idle.kde': 'KDE（スクリーンセーバーのインターフェース）',
  'sources.idle.x11': 'X11（xprintidle）',
  'sources.idle.logind': 'logind（IdleHint）',
  'sources.idle.macos': 'macOS（HIDIdleTime）',
  'sources.idle.windows': 'Windows（GetLastInputInfo）',
  'sources.needs.mutter': 'GNOME セッション：gnome-shell のアイドルモニターを D-Bus 経由で gdbus で読み取ります（Debian/Ubuntu：{apt}）',
  'sources.needs.kde': 'KDE Plasma セッション：スクリーンセーバーのインターフェースを D-Bus 経由で gdbus で読み取ります（Debian/Ubuntu：{apt}）',
  'sources.needs.x11': 'X11 セッション（{display} が設定済み）と xprintidle（Debian/Ubuntu：{apt}、Fedora：{dnf}）',
  'sources.needs.logind': 'systemd-logind と {busctl}、およびセッションの IdleHint を設定するデスクトップまたは画面ロック',
  'sources.needs.macos': 'PATH 上の {ioreg}（macOS に付属）',
  'sources.needs.windows': 'PATH 上の Windows PowerShell（{exe}）',
  'sources.capture.gnome': 'GNOME Shell（Tock 拡張機能）',
  'sources.capture.kde': 'KDE Plasma（KWin スクリプト）',
  'sources.capture.sway': 'sway（IPC）',
  'sources.capture.hyprland': 'Hyprland（IPC イベント）',
  'sources.capture.x11': 'X11（EWMH、xprop）',
  'sources.reason.notSet': '{variable} が設定されていません',
  'sources.reason.notRunning': 'このセッションバスで {program} が動作していません',
  'sources.reason.gnomeExtension': 'Tock の GNOME Shell 拡張機能が応答しません（または古いバージョンです）。{command} を実行してから、ログアウトして再度ログインしてください',
  'sources.reason.gnomeExtensionOld': 'この環境の Tock の GNOME Shell 拡張機能はバージョン {installed} で、この Tock のもの（{shipped}）より古いバージョンです。{command} を実行してから、ログアウトして再度ログインしてください',
  'sources.reason.kwinApi': 'KWin {version}：スクリプトは Plasma {plasma} のスクリプト API（{signal}）に従います',
  'sources.reason.noEwmh': 'ウィンドウマネージャーが EWMH に対応していません（ルートウィンドウに _NET_SUPPORTING_WM_CHECK がありません）',
  'sources.reason.notInstalled': '{program} がインストールされていません（Debian/Ubuntu：{package}）',
  'sources.reason.noSocket': 'ソケット {path} が存在しません',
} as const satisfies Catalog<typeof en>;
