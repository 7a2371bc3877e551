/**
 * The conditions of POST /v1/people/users/filtered-users: `colId` is a dotted
 * path into the user (arrays are walked), `key` picks a sub-field or a custom
 * field by its id, `opr` one of the operators below (with their aliases).
 * Numbers compare as numbers, everything else case-insensitively as text; the
 * negative operators are the exact complements, so they also match users
 * without the value.
 */
import type { Doc } from '../../state';
import { validate, validateEach } from '../../validate';
import { fieldError, isObj, lower, pathValues } from '../gateway';

const OPERATORS: Record<string, string> = {
	eq: 'eq',
	'=': 'eq',
	equals: 'eq',
	neq: 'neq',
	ne: 'neq',
	'!=': 'neq',
	c: 'c',
	contains: 'c',
	nc: 'nc',
	sw: 'sw',
	ew: 'ew',
	in: 'in',
	nin: 'nin',
	gt: 'gt',
	gte: 'gte',
	ge: 'gte',
	lt: 'lt',
	lte: 'lte',
	le: 'lte',
};

export interface Condition {
	colId: string;
	key?: string;
	opr: string;
	value: string;
}

export function readConditions(body: Record<string, unknown>): Condition[] {
	const input = validate(body, { conditions: 'object[]' });
	const list = Array.isArray(input.conditions) ? input.conditions : [];
	return validateEach(
		list,
		{ colId: 'string', value: 'string', opr: 'string', key: 'string' },
		'conditions',
	).map((c, i) => {
		const colId = (c.colId as string | null) || (c.key as string | null);
		if (!colId) throw fieldError(`conditions[${i}].colId`, 'is required');
		const opr = OPERATORS[lower(c.opr ?? 'eq') || 'eq'];
		if (!opr)
			throw fieldError(
				`conditions[${i}].opr`,
				`must be one of ${[...new Set(Object.values(OPERATORS))].join(', ')}`,
			);
		return {
			colId,
			key: (c.key as string | null) ?? undefined,
			opr,
			value: (c.value as string | null) ?? '',
		};
	});
}

/** Values a condition looks at: colId as a dotted path; `key` picks a sub-field or a custom field by its id. */
function conditionValues(u: Doc, c: Condition): unknown[] {
	let vals = pathValues(u, c.colId);
	if (c.key && c.key !== c.colId) {
		const key = c.key;
		vals = vals.flatMap((v) => {
			if (!isObj(v)) return [];
			if (key in v) return ([] as unknown[]).concat(v[key]);
			if (v.customFieldId === key || v.id === key) return ([] as unknown[]).concat(v.value ?? []);
			return [];
		});
	}
	return vals.filter((v) => v === null || typeof v !== 'object');
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

function compareScalar(v: unknown, value: string): number {
	const s = v === null || v === undefined ? '' : String(v);
	if (NUMERIC.test(s) && NUMERIC.test(value)) return Number(s) - Number(value);
	const a = s.toLowerCase();
	const b = value.toLowerCase();
	return a < b ? -1 : a > b ? 1 : 0;
}

function positive(opr: string, v: unknown, value: string): boolean {
	const s = v === null || v === undefined ? '' : String(v).toLowerCase();
	const needle = value.toLowerCase();
	switch (opr) {
		case 'eq':
			return compareScalar(v, value) === 0;
		case 'c':
			return s.includes(needle);
		case 'sw':
			return s.startsWith(needle);
		case 'ew':
			return s.endsWith(needle);
		case 'in':
			return value
				.split(',')
				.map((x) => x.trim())
				.some((x) => compareScalar(v, x) === 0);
		case 'gt':
			return compareScalar(v, value) > 0;
		case 'gte':
			return compareScalar(v, value) >= 0;
		case 'lt':
			return compareScalar(v, value) < 0;
		default:
			return compareScalar(v, value) <= 0;
	}
}

const NEGATED: Record<string, string> = { neq: 'eq', nc: 'c', nin: 'in' };

export function conditionMatches(u: Doc, c: Condition): boolean {
	const vals = conditionValues(u, c);
	const candidates = vals.length ? vals : [''];
	const neg = NEGATED[c.opr];
	if (neg) return !candidates.some((v) => positive(neg, v, c.value));
	if (!vals.length && ['gt', 'gte', 'lt', 'lte'].includes(c.opr)) return false;
	return candidates.some((v) => positive(c.opr, v, c.value));
}
