/**
 * Type checks of request bodies, like a Java/Jackson back end would do: wrong
 * types are refused with 400 and one entry per field; unknown fields are kept
 * out of the stored model; null means "not set".
 */
import { badRequest, type FieldError } from './http';

export type FieldType =
	| 'string'
	| 'integer'
	| 'number'
	| 'boolean'
	| 'object'
	| 'any'
	| 'integer[]'
	| 'string[]'
	| 'object[]'
	| 'any[]'
	/** sub_owner_ids: a string in the schema, an integer array in samples. */
	| 'string|integer[]';

export type Schema = Record<string, FieldType>;

const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
const isObj = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

function check(type: FieldType, v: unknown): string | undefined {
	switch (type) {
		case 'string':
			return typeof v === 'string' ? undefined : 'must be a string';
		case 'integer':
			return isInt(v) ? undefined : 'must be an integer';
		case 'number':
			return typeof v === 'number' && Number.isFinite(v) ? undefined : 'must be a number';
		case 'boolean':
			return typeof v === 'boolean' ? undefined : 'must be a boolean';
		case 'object':
			return isObj(v) ? undefined : 'must be an object';
		case 'any':
			return undefined;
		case 'integer[]':
			return Array.isArray(v) && v.every(isInt) ? undefined : 'must be an array of integers';
		case 'string[]':
			return Array.isArray(v) && v.every((x) => typeof x === 'string')
				? undefined
				: 'must be an array of strings';
		case 'object[]':
			return Array.isArray(v) && v.every(isObj) ? undefined : 'must be an array of objects';
		case 'any[]':
			return Array.isArray(v) ? undefined : 'must be an array';
		case 'string|integer[]':
			return typeof v === 'string' || (Array.isArray(v) && v.every(isInt))
				? undefined
				: 'must be a string or an array of integers';
	}
}

/**
 * Checks `body` against `schema` and returns only the known fields (null values
 * are kept as null). `required` names fields that must be present and non-empty.
 */
export function validate(
	body: Record<string, unknown>,
	schema: Schema,
	required: string[] = [],
	prefix = '',
): Record<string, unknown> {
	const errors: FieldError[] = [];
	const out: Record<string, unknown> = {};
	for (const [key, type] of Object.entries(schema)) {
		if (!(key in body)) continue;
		const v = body[key];
		if (v === null || v === undefined) {
			out[key] = null;
			continue;
		}
		const problem = check(type, v);
		if (problem) errors.push({ field: prefix + key, error: problem });
		else out[key] = v;
	}
	for (const key of required) {
		const v = body[key];
		if (v === undefined || v === null || v === '')
			errors.push({ field: prefix + key, error: 'is required' });
	}
	if (errors.length) {
		throw badRequest(
			`Validation failed: ${errors.map((e) => `${e.field} ${e.error}`).join('; ')}`,
			errors,
		);
	}
	return out;
}

/** Validates every element of an array field against a sub-schema. */
export function validateEach(
	items: unknown[],
	schema: Schema,
	field: string,
	required: string[] = [],
): Record<string, unknown>[] {
	return items.map((item, i) => {
		if (!isObj(item))
			throw badRequest(`Validation failed: ${field}[${i}] must be an object`, [
				{ field: `${field}[${i}]`, error: 'must be an object' },
			]);
		return validate(item as Record<string, unknown>, schema, required, `${field}[${i}].`);
	});
}

export function requireIntArray(v: unknown, field: string, nonEmpty = true): number[] {
	if (!Array.isArray(v) || !v.every(isInt) || (nonEmpty && v.length === 0)) {
		throw badRequest(`Validation failed: ${field} must be a non-empty array of integers`, [
			{ field, error: 'must be a non-empty array of integers' },
		]);
	}
	return v as number[];
}

export function requireStringArray(v: unknown, field: string, nonEmpty = true): string[] {
	if (!Array.isArray(v) || !v.every((x) => typeof x === 'string') || (nonEmpty && v.length === 0)) {
		throw badRequest(`Validation failed: ${field} must be a non-empty array of strings`, [
			{ field, error: 'must be a non-empty array of strings' },
		]);
	}
	return v as string[];
}
