/**
 * Checks traffic against the platform contract: a request (method, path, query
 * names and values, body) against the operation it names, an answer against that
 * operation's response for its status, an event payload against the document's
 * `webhooks`. ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect) validates values;
 * path and query values arrive as text and are read by their schema's type first.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

import { loadContract, type ContractOperation, type LoadedContract, type Parameter } from './load';

export interface RequestFacts {
	method: string;
	/** The path as sent (before the sandbox's own normalising). */
	path: string;
	query: URLSearchParams;
	contentType?: string;
	/** The raw body text ('' for none; undefined when it was not read, as when it was too large). */
	body?: string;
}

export interface Matched {
	op: ContractOperation;
	params: Record<string, string>;
}

const mediaOf = (contentType: string | undefined) =>
	(contentType ?? '').split(';')[0].trim().toLowerCase();

function describe(errors: ErrorObject[] | null | undefined, where: string): string[] {
	return (errors ?? [])
		.slice(0, 5)
		.map(
			(e) =>
				`${where}${e.instancePath || ''} ${e.message ?? 'is not valid'}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
		);
}

/** Reads a path or query value as the type its schema names; text that is not that type stays text (and fails). */
function fromText(text: string, schema: Record<string, unknown>): unknown {
	const types = ([] as unknown[]).concat(schema.type ?? []);
	if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(text))
		return Number(text);
	if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
	return text;
}

export class ContractChecker {
	readonly contract: LoadedContract;
	private readonly ajv: Ajv2020;
	private readonly compiled = new Map<string, ValidateFunction>();

	constructor(contract: LoadedContract = loadContract()) {
		this.contract = contract;
		// strict off: the document around the schemas (paths, operations) is OpenAPI, not JSON Schema;
		// test/sandbox/contract.test.ts checks that every schema keyword is one ajv knows.
		this.ajv = new Ajv2020({ strict: false, allErrors: true });
		addFormats(this.ajv);
		this.ajv.addSchema({ ...contract.doc, $id: 'contract' });
	}

	private validator(pointer: string): ValidateFunction {
		let v = this.compiled.get(pointer);
		if (!v) {
			v = this.ajv.compile({ $ref: `contract#${pointer}` });
			this.compiled.set(pointer, v);
		}
		return v;
	}

	private valid(pointer: string, value: unknown, where: string): string[] {
		const v = this.validator(pointer);
		return v(value) ? [] : describe(v.errors, where);
	}

	/** The operation a method and path name: the most literal path template that matches. */
	match(method: string, path: string): Matched | undefined {
		let best: Matched | undefined;
		for (const op of this.contract.operations) {
			if (op.method !== method) continue;
			const m = op.pattern.exec(path);
			if (!m || (best && best.op.literals >= op.literals)) continue;
			const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]);
			const params: Record<string, string> = {};
			names.forEach((n, i) => {
				try {
					params[n] = decodeURIComponent(m[i + 1]);
				} catch {
					params[n] = m[i + 1];
				}
			});
			best = { op, params };
		}
		return best;
	}

	/** Problems of a request; `op` is the operation it named, when it named one. */
	checkRequest(r: RequestFacts): { op?: ContractOperation; problems: string[] } {
		const found = this.match(r.method, r.path);
		if (!found) {
			const other = this.contract.operations
				.filter((o) => o.pattern.test(r.path))
				.map((o) => o.method);
			return {
				problems: [
					other.length
						? `${r.method} ${r.path}: the contract has only ${other.join(', ')} on this path`
						: `${r.method} ${r.path}: no operation of the contract has this path`,
				],
			};
		}
		const { op, params } = found;
		const problems: string[] = [];
		for (const p of op.params.filter((x) => x.in === 'path'))
			problems.push(
				...this.valid(p.pointer, fromText(params[p.name] ?? '', p.schema), `path ${p.name}`),
			);
		problems.push(...this.checkQuery(op, r.query));
		problems.push(...this.checkBody(op, r));
		return { op, problems: problems.map((p) => `${op.method} ${op.path}: ${p}`) };
	}

	private checkQuery(op: ContractOperation, query: URLSearchParams): string[] {
		const problems: string[] = [];
		const known = new Map<string, Parameter>(
			op.params.filter((p) => p.in === 'query').map((p) => [p.name, p]),
		);
		for (const name of new Set(query.keys())) {
			const p = known.get(name);
			if (!p) {
				problems.push(`query ${name} is not a parameter of this operation`);
				continue;
			}
			const values = query.getAll(name);
			if (p.schema.type === 'array') {
				const items = (p.schema.items ?? {}) as Record<string, unknown>;
				problems.push(
					...this.valid(
						p.pointer,
						values.map((v) => fromText(v, items)),
						`query ${name}`,
					),
				);
			} else if (values.length > 1) {
				problems.push(`query ${name} is sent ${values.length} times`);
			} else {
				problems.push(...this.valid(p.pointer, fromText(values[0], p.schema), `query ${name}`));
			}
		}
		for (const p of known.values())
			if (p.required && !query.has(p.name)) problems.push(`query ${p.name} is required`);
		return problems;
	}

	private checkBody(op: ContractOperation, r: RequestFacts): string[] {
		if (r.body === undefined) return [];
		if (!op.body) return r.body ? ['sends a body, and the operation takes none'] : [];
		if (!r.body) return op.body.required ? ['sends no body, and the operation needs one'] : [];
		const media = mediaOf(r.contentType);
		const pointer = op.body.media.get(media);
		if (!pointer)
			return [
				`sends ${media || 'no content type'}, the operation takes ${[...op.body.media.keys()].join(' or ')}`,
			];
		let value: unknown;
		if (media === 'application/json') {
			try {
				value = JSON.parse(r.body);
			} catch {
				return ['the body is not JSON'];
			}
		} else if (media === 'application/x-www-form-urlencoded') {
			value = Object.fromEntries(new URLSearchParams(r.body));
		} else value = r.body;
		return this.valid(pointer, value, 'body');
	}

	/** Problems of an answer to `op`. `body` is the text sent ('' for none). */
	checkResponse(
		op: ContractOperation,
		status: number,
		contentType: string | undefined,
		body: string,
	): string[] {
		const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) =>
			op.responses.has(k),
		);
		const at = `${op.method} ${op.path} answered ${status}`;
		if (!key) return [`${at}: the contract has no response for this status`];
		const c = op.responses.get(key);
		if (!c) return body ? [`${at}: sends a body, and the contract's response has none`] : [];
		const media = mediaOf(contentType);
		const pointer = c.media.get(media);
		if (!pointer)
			return [
				`${at}: sends ${media || 'no content type'}, the contract answers ${[...c.media.keys()].join(' or ')}`,
			];
		let value: unknown = body;
		if (media === 'application/json') {
			try {
				value = JSON.parse(body);
			} catch {
				return [`${at}: the body is not JSON`];
			}
		}
		return this.valid(pointer, value, 'body').map((p) => `${at}: ${p}`);
	}

	/** Problems of an event payload the sandbox delivers. */
	checkEvent(payload: unknown): string[] {
		return this.valid(this.contract.eventPointer, payload, 'event').map(
			(p) => `event delivery: ${p}`,
		);
	}
}
