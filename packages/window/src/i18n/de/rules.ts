/** Die Regeln eines abgelehnten Feldes auf Deutsch, nach ihrem Code (Begriffe nach docs/glossary/de.md). */
import type { Catalog } from '@tock/i18n';
import type { rules as en } from '../en/rules.ts';

export const rules = {
  'rule.field': '{field}: {rule}',
  'rule.required': 'ist erforderlich',
  'rule.notAllowedName': 'ist als Feldname nicht erlaubt',
  'rule.bodyEmpty': 'der Inhalt der Anfrage muss ein JSON-Objekt sein; er ist leer',
  'rule.bodyNotObject': 'der Inhalt der Anfrage muss ein JSON-Objekt sein',
  'rule.eitherNotBoth': 'geben Sie entweder {a} oder {b} an, nicht beides',
  'rule.eitherOne': 'geben Sie entweder {a} oder {b} an',
  'rule.boolean': 'muss true oder false sein',
  'rule.number': 'muss {kind, select, integer {eine ganze Zahl} other {eine Zahl}} sein',
  'rule.numberRange': 'muss {kind, select, integer {eine ganze Zahl} other {eine Zahl}} von {min} bis {max} sein',
  'rule.numberAbove': 'muss {kind, select, integer {eine ganze Zahl} other {eine Zahl}} größer als {above} sein',
  'rule.numberAboveAtMost': 'muss {kind, select, integer {eine ganze Zahl} other {eine Zahl}} größer als {above} und höchstens {max} sein',
  'rule.numberAtLeast': 'muss {kind, select, integer {eine ganze Zahl} other {eine Zahl}} von mindestens {min} sein',
  'rule.numberAtMost': 'muss {kind, select, integer {eine ganze Zahl} other {eine Zahl}} von höchstens {max} sein',
  'rule.uuid': 'muss eine UUID sein, etwa {example}',
  'rule.dateTime': 'muss ein Zeitpunkt nach ISO 8601 sein, etwa {example}',
  'rule.date': 'muss ein Datum JJJJ-MM-TT sein, etwa {example}',
  'rule.oneOf': 'muss einer dieser Werte sein: {options}',
  'rule.text': 'muss ein Text{clean, select, yes { ohne Steuerzeichen und Richtungsüberschreibungen} other {}} sein',
  'rule.textAtLeast':
    'muss ein Text aus mindestens {min, plural, one {# Zeichen} other {# Zeichen}}{trimmed, select, yes { (ohne Leerraum am Anfang und Ende)} other {}} sein{clean, select, yes {, ohne Steuerzeichen und Richtungsüberschreibungen} other {}}',
  'rule.textRange':
    'muss ein Text aus {min} bis {max, plural, one {# Zeichen} other {# Zeichen}}{trimmed, select, yes { (ohne Leerraum am Anfang und Ende)} other {}} sein{clean, select, yes {, ohne Steuerzeichen und Richtungsüberschreibungen} other {}}',
  'rule.textAtMost': 'muss ein Text aus höchstens {max, plural, one {# Zeichen} other {# Zeichen}} sein{clean, select, yes {, ohne Steuerzeichen und Richtungsüberschreibungen} other {}}',
  'rule.unicode': 'muss gültiger Unicode-Text sein',
  'rule.timeInRange': 'muss ein Zeitpunkt in den Jahren 1970–2199 sein',
  'rule.notFuture': 'darf höchstens {seconds, plural, one {# Sekunde} other {# Sekunden}} in der Zukunft liegen',
  'rule.list': 'muss eine Liste aus höchstens {max, plural, one {# Eintrag} other {# Einträgen}} sein; jeder Eintrag {each}',
  'rule.budgetHours': 'muss eine Stundenzahl über 0 sein (höchstens {max}), nicht {sent}',
} as const satisfies Catalog<typeof en>;
