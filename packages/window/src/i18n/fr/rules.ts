/** Les règles d’un champ refusé en français, selon leur code (termes selon docs/glossary/fr.md). */
import type { Catalog } from '@tock/i18n';
import type { rules as en } from '../en/rules.ts';

export const rules = {
  'rule.field': '{field} : {rule}',
  'rule.required': 'est obligatoire',
  'rule.notAllowedName': 'n’est pas autorisé comme nom de champ',
  'rule.bodyEmpty': 'le corps de la requête doit être un objet JSON ; il est vide',
  'rule.bodyNotObject': 'le corps de la requête doit être un objet JSON',
  'rule.eitherNotBoth': 'indiquez soit {a}, soit {b}, mais pas les deux',
  'rule.eitherOne': 'indiquez soit {a}, soit {b}',
  'rule.boolean': 'doit valoir true ou false',
  'rule.number': 'doit être {kind, select, integer {un nombre entier} other {un nombre}}',
  'rule.numberRange': 'doit être {kind, select, integer {un nombre entier} other {un nombre}} de {min} à {max}',
  'rule.numberAbove': 'doit être {kind, select, integer {un nombre entier} other {un nombre}} supérieur à {above}',
  'rule.numberAboveAtMost': 'doit être {kind, select, integer {un nombre entier} other {un nombre}} supérieur à {above} et d’au plus {max}',
  'rule.numberAtLeast': 'doit être {kind, select, integer {un nombre entier} other {un nombre}} d’au moins {min}',
  'rule.numberAtMost': 'doit être {kind, select, integer {un nombre entier} other {un nombre}} d’au plus {max}',
  'rule.uuid': 'doit être un UUID, par exemple {example}',
  'rule.dateTime': 'doit être une date et heure ISO 8601, par exemple {example}',
  'rule.date': 'doit être une date AAAA-MM-JJ, par exemple {example}',
  'rule.oneOf': 'doit être l’une de ces valeurs : {options}',
  'rule.text': 'doit être un texte{clean, select, yes { sans caractères de contrôle ni forçage de direction} other {}}',
  'rule.textAtLeast':
    'doit être un texte d’au moins {min, plural, one {# caractère} other {# caractères}}{trimmed, select, yes { (espaces de début et de fin exclus)} other {}}{clean, select, yes {, sans caractères de contrôle ni forçage de direction} other {}}',
  'rule.textRange':
    'doit être un texte de {min} à {max, plural, one {# caractère} other {# caractères}}{trimmed, select, yes { (espaces de début et de fin exclus)} other {}}{clean, select, yes {, sans caractères de contrôle ni forçage de direction} other {}}',
  'rule.textAtMost': 'doit être un texte d’au plus {max, plural, one {# caractère} other {# caractères}}{clean, select, yes {, sans caractères de contrôle ni forçage de direction} other {}}',
  'rule.unicode': 'doit être un texte Unicode valide',
  'rule.timeInRange': 'doit être une heure comprise entre les années 1970 et 2199',
  'rule.notFuture': 'ne doit pas dépasser de plus de {seconds, plural, one {# seconde} other {# secondes}} l’heure actuelle',
  'rule.list': 'doit être une liste d’au plus {max, plural, one {# élément} other {# éléments}} ; chaque élément {each}',
  'rule.budgetHours': 'doit être un nombre d’heures supérieur à 0 (au plus {max}), et non {sent}',
} as const satisfies Catalog<typeof en>;
