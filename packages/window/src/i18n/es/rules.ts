/** Las reglas de un campo rechazado en español, según su código (términos según docs/glossary/es.md). */
import type { Catalog } from '@tock/i18n';
import type { rules as en } from '../en/rules.ts';

export const rules = {
  'rule.field': '{field}: {rule}',
  'rule.required': 'es obligatorio',
  'rule.notAllowedName': 'no está permitido como nombre de campo',
  'rule.bodyEmpty': 'el cuerpo de la solicitud debe ser un objeto JSON; está vacío',
  'rule.bodyNotObject': 'el cuerpo de la solicitud debe ser un objeto JSON',
  'rule.eitherNotBoth': 'indique {a} o {b}, pero no ambos',
  'rule.eitherOne': 'indique {a} o {b}',
  'rule.boolean': 'debe ser true o false',
  'rule.number': 'debe ser {kind, select, integer {un número entero} other {un número}}',
  'rule.numberRange': 'debe ser {kind, select, integer {un número entero} other {un número}} de {min} a {max}',
  'rule.numberAbove': 'debe ser {kind, select, integer {un número entero} other {un número}} mayor que {above}',
  'rule.numberAboveAtMost': 'debe ser {kind, select, integer {un número entero} other {un número}} mayor que {above} y como máximo {max}',
  'rule.numberAtLeast': 'debe ser {kind, select, integer {un número entero} other {un número}} de al menos {min}',
  'rule.numberAtMost': 'debe ser {kind, select, integer {un número entero} other {un número}} de como máximo {max}',
  'rule.uuid': 'debe ser un UUID, por ejemplo {example}',
  'rule.dateTime': 'debe ser una fecha y hora ISO 8601, por ejemplo {example}',
  'rule.date': 'debe ser una fecha AAAA-MM-DD, por ejemplo {example}',
  'rule.oneOf': 'debe ser uno de estos valores: {options}',
  'rule.text': 'debe ser un texto{clean, select, yes { sin caracteres de control ni cambios de dirección} other {}}',
  'rule.textAtLeast':
    'debe ser un texto de al menos {min, plural, one {# carácter} other {# caracteres}}{trimmed, select, yes { (sin espacios al principio ni al final)} other {}}{clean, select, yes {, sin caracteres de control ni cambios de dirección} other {}}',
  'rule.textRange':
    'debe ser un texto de {min} a {max, plural, one {# carácter} other {# caracteres}}{trimmed, select, yes { (sin espacios al principio ni al final)} other {}}{clean, select, yes {, sin caracteres de control ni cambios de dirección} other {}}',
  'rule.textAtMost': 'debe ser un texto de como máximo {max, plural, one {# carácter} other {# caracteres}}{clean, select, yes {, sin caracteres de control ni cambios de dirección} other {}}',
  'rule.unicode': 'debe ser un texto Unicode válido',
  'rule.timeInRange': 'debe ser una hora entre los años 1970 y 2199',
  'rule.notFuture': 'no debe estar más de {seconds, plural, one {# segundo} other {# segundos}} en el futuro',
  'rule.list': 'debe ser una lista de como máximo {max, plural, one {# elemento} other {# elementos}}; cada elemento {each}',
  'rule.budgetHours': 'debe ser un número de horas mayor que 0 (como máximo {max}), no {sent}',
} as const satisfies Catalog<typeof en>;
