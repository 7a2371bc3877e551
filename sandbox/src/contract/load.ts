/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The platform contract (`contract/openapi.yaml`) read into a list of operations:
 * method, path template, module, parameters, request body and responses, with the
 * OpenAPI references of parameters, request bodies and responses resolved. Schemas
 * keep their `$ref`s: the checker (check.ts) hands them to ajv with the document.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { parse } from 'yaml';

export const CONTRACT_FILE = join(__dirname, '..', '..', '..', 'contract', 'openapi.yaml');

/**
 * A folder where the document, parsed, is kept as JSON for other processes (the tests' global
 * setup names one of the run's scratch folders): every sandbox checks its traffic against it, and
 * parsing the YAML in each sandbox would be a large share of a test run's CPU (docs/performance.md,
 * What the test machinery spares).
 */
export const CONTRACT_CACHE_ENV = 'BP_CONTRACT_CACHE';

/** The YAML's content → the document as JSON text (once per process; per run with the cache folder). */
const parsed = new Map<string, string>();

function documentText(file: string): string {
	const yaml = readFileSync(file, 'utf8');
	const key = createHash('sha256').update(yaml).digest('hex').slice(0, 32);
	let text = parsed.get(key);
	if (text !== undefined) return text;
	const dir = process.env[CONTRACT_CACHE_ENV];
	const cached = dir ? join(dir, `openapi-${key}.json`) : undefined;
	try {
		if (cached) text = readFileSync(cached, 'utf8');
	} catch {
		// not there yet: parsed below, and written for the next process
	}
	if (text === undefined) {
		text = JSON.stringify(parse(yaml));
		if (cached) {
			try {
				const tmp = `${cached}.${process.pid}.tmp`;
				writeFileSync(tmp, text);
				renameSync(tmp, cached); // whole or not at all, whoever writes it first
			} catch {
				// a cache only: the next process parses the YAML again
			}
		}
	}
	parsed.set(key, text);
	return text;
}

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type Module = 'sales' | 'campaigns' | 'people' | 'webhooks' | 'auth';

type Json = Record<string, unknown>;

export interface Parameter {
	name: string;
	in: 'path' | 'query' | 'header';
	required: boolean;
	schema: Json;
	/** JSON pointer of the schema in the document (what ajv compiles). */
	pointer: string;
}

export interface Content {
	/** Media type → JSON pointer of its schema. */
	media: Map<string, string>;
}

export interface ContractOperation {
	id: string;
	module: Module;
	method: string;
	/** The path as the contract writes it: `/v1/crm/contacts/{id}`. */
	path: string;
	/** Where the documents say "not shown" or disagree with themselves: what the project chose. */
	chosen?: string;
	params: Parameter[];
	body?: Content & { required: boolean };
	/** Status (`'201'`, `'default'`) → its content, or undefined when it has no body. */
	responses: Map<string, Content | undefined>;
	/** Literal segments first: `/contacts/labels` wins over `/contacts/{id}`. */
	literals: number;
	pattern: RegExp;
}

export interface LoadedContract {
	doc: Json;
	operations: ContractOperation[];
	/** JSON pointer of the event payload schema (the document's `webhooks`). */
	eventPointer: string;
}

const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Follows a `{$ref: '#/...'}` (not a schema's: a parameter's, body's or response's) to its object and pointer. */
function deref(doc: Json, value: unknown, pointer: string): { value: Json; pointer: string } {
	let v = value as Json;
	let p = pointer;
	while (v && typeof v.$ref === 'string') {
		p = v.$ref.slice(1);
		v = p
			.split('/')
			.slice(1)
			.reduce<Json>((o, k) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')] as Json, doc);
		if (!v) throw new Error(`contract: unresolved reference ${p}`);
	}
	return { value: v, pointer: p };
}

function content(c: unknown, pointer: string): Content {
	const media = new Map<string, string>();
	for (const type of Object.keys((c ?? {}) as Json))
		media.set(type, `${pointer}/content/${esc(type)}/schema`);
	return { media };
}

function pathPattern(path: string): RegExp {
	const source = path
		.split('/')
		.map((seg) =>
			/^\{[^}]+\}$/.test(seg) ? '([^/]+)' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
		)
		.join('/');
	return new RegExp(`^${source}$`);
}

function parameters(doc: Json, list: unknown, pointer: string): Parameter[] {
	return ((list ?? []) as unknown[]).map((raw, i) => {
		const { value: p, pointer: at } = deref(doc, raw, `${pointer}/${i}`);
		return {
			name: String(p.name),
			in: p.in as Parameter['in'],
			required: p.required === true,
			schema: p.schema as Json,
			pointer: `${at}/schema`,
		};
	});
}

/** The contract, a fresh copy for each caller (checkers hand it to ajv). */
export function loadContract(file = CONTRACT_FILE): LoadedContract {
	const doc = JSON.parse(documentText(file)) as Json;
	const operations: ContractOperation[] = [];
	for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
		const itemPointer = `/paths/${esc(path)}`;
		const shared = parameters(doc, item.parameters, `${itemPointer}/parameters`);
		for (const method of METHODS) {
			const op = item[method] as Json | undefined;
			if (!op) continue;
			const at = `${itemPointer}/${method}`;
			const own = parameters(doc, op.parameters, `${at}/parameters`);
			let body: ContractOperation['body'];
			if (op.requestBody) {
				const { value, pointer } = deref(doc, op.requestBody, `${at}/requestBody`);
				body = { ...content(value.content, pointer), required: value.required === true };
			}
			const responses = new Map<string, Content | undefined>();
			for (const [status, r] of Object.entries(op.responses as Json)) {
				const { value, pointer } = deref(doc, r, `${at}/responses/${esc(status)}`);
				responses.set(status, value.content ? content(value.content, pointer) : undefined);
			}
			operations.push({
				id: String(op.operationId),
				module: op['x-module'] as Module,
				method: method.toUpperCase(),
				path,
				chosen: op['x-chosen'] as string | undefined,
				params: [
					...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)),
					...own,
				],
				body,
				responses,
				literals: path.split('/').filter((s) => s && !s.startsWith('{')).length,
				pattern: pathPattern(path),
			});
		}
	}
	return {
		doc,
		operations,
		eventPointer: '/webhooks/event/post/requestBody/content/application~1json/schema',
	};
}
