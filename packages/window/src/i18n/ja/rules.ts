/** 却下された項目の規則（日本語、コードごと。用語は docs/glossary/ja.md に従います）。 */
import type { Catalog } from '@tock/i18n';
import type { rules as en } from '../en/rules.ts';

export const rules = {
  'rule.field': '{field}：{rule}',
  'rule.required': '必須です',
  'rule.notAllowedName': '項目名として使用できません',
  'rule.bodyEmpty': 'リクエストの本文は JSON オブジェクトである必要があります。本文が空です',
  'rule.bodyNotObject': 'リクエストの本文は JSON オブジェクトである必要があります',
  'rule.eitherNotBoth': '{a} と {b} のどちらか一方だけを指定してください',
  'rule.eitherOne': '{a} または {b} を指定してください',
  'rule.boolean': 'true または false で指定してください',
  'rule.number': '{kind, select, integer {整数} other {数値}}で指定してください',
  'rule.numberRange': '{min}～{max} の{kind, select, integer {整数} other {数値}}で指定してください',
  'rule.numberAbove': '{above} より大きい{kind, select, integer {整数} other {数値}}で指定してください',
  'rule.numberAboveAtMost': '{above} より大きく {max} 以下の{kind, select, integer {整数} other {数値}}で指定してください',
  'rule.numberAtLeast': '{min} 以上の{kind, select, integer {整数} other {数値}}で指定してください',
  'rule.numberAtMost': '{max} 以下の{kind, select, integer {整数} other {数値}}で指定してください',
  'rule.uuid': 'UUID（例：{example}）で指定してください',
  'rule.dateTime': 'ISO 8601 の日時（例：{example}）で指定してください',
  'rule.date': 'YYYY-MM-DD 形式の日付（例：{example}）で指定してください',
  'rule.oneOf': '次のいずれかで指定してください：{options}',
  'rule.text': '{clean, select, yes {制御文字や双方向上書き文字を含まない} other {}}テキストで指定してください',
  'rule.textAtLeast':
    '{trimmed, select, yes {前後の空白を除いて} other {}}{min, plural, other {# 文字}}以上の{clean, select, yes {、制御文字や双方向上書き文字を含まない} other {}}テキストで指定してください',
  'rule.textRange':
    '{trimmed, select, yes {前後の空白を除いて} other {}}{min}～{max, plural, other {# 文字}}の{clean, select, yes {、制御文字や双方向上書き文字を含まない} other {}}テキストで指定してください',
  'rule.textAtMost': '{max, plural, other {# 文字}}以下の{clean, select, yes {、制御文字や双方向上書き文字を含まない} other {}}テキストで指定してください',
  'rule.unicode': '有効な Unicode テキストで指定してください',
  'rule.timeInRange': '1970～2199 年の時刻で指定してください',
  'rule.notFuture': '現在から {seconds, plural, other {# 秒}}を超える未来の時刻にはできません',
  'rule.list': '{max, plural, other {# 個}}以下のリストで指定してください。各項目：{each}',
  'rule.budgetHours': '0 より大きい時間数（最大 {max}）で指定してください。{sent} は指定できません',
} as const satisfies Catalog<typeof en>;
