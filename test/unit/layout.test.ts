/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The node layout a newcomer can change safely (docs/ARCHITECTURE.md): every endpoint
 * in nodes/<Node>/resources/<resource>/<operation>.ts, files and functions small enough
 * to read in one sitting, no state that outlives a call, and pickers that exist and
 * cannot silently replace each other.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import type { IDataObject, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import * as ts from 'typescript';

import { CUSTOM_CALL } from '../../nodes/shared/engine/custom-call';
import { mergeMethods } from '../../nodes/shared/engine/methods';
import type { Resource } from '../../nodes/shared/engine/model';
import { NODE_TYPES } from '../../testbed/harness/nodes';
import { lineCount } from './file-lengths.test';

const ROOT = join(__dirname, '../..');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

const packFiles = [...sourceFiles(join(ROOT, 'nodes')), ...sourceFiles(join(ROOT, 'credentials'))];
const parse = (file: string) =>
	ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
const where = (sf: ts.SourceFile, node: ts.Node) =>
	`${relative(ROOT, sf.fileName)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;

describe('files and functions', () => {
	it(`no source file in nodes/ or credentials/ is over ${MAX_FILE_LINES} lines`, () => {
		const long = packFiles
			.map((f) => [relative(ROOT, f), lineCount(readFileSync(f, 'utf8'))] as const)
			.filter(([, n]) => n > MAX_FILE_LINES);
		expect(long).toEqual([]);
	});

	it(`no function is over ${MAX_FUNCTION_LINES} lines`, () => {
		const long: string[] = [];
		for (const file of packFiles) {
			const sf = parse(file);
			const visit = (node: ts.Node) => {
				if (ts.isFunctionLike(node) && 'body' in node && node.body) {
					const lines =
						sf.getLineAndCharacterOfPosition(node.getEnd()).line -
						sf.getLineAndCharacterOfPosition(node.getStart()).line +
						1;
					if (lines > MAX_FUNCTION_LINES) long.push(`${where(sf, node)} (${lines} lines)`);
				}
				ts.forEachChild(node, visit);
			};
			visit(sf);
		}
		expect(long).toEqual([]);
	});
});

describe('work proportional to a list is never put on the stack', () => {
	// `f(...list)` passes every element as an argument: past about 10^5 (a burst of changes in one
	// poll, a page of any size a platform serves) it throws "Maximum call stack size exceeded".
	it('no call or `new` in nodes/ or credentials/ takes a spread argument', () => {
		const found: string[] = [];
		for (const file of packFiles) {
			const sf = parse(file);
			const visit = (node: ts.Node) => {
				if (
					(ts.isCallExpression(node) || ts.isNewExpression(node)) &&
					node.arguments?.some(ts.isSpreadElement)
				)
					found.push(`${where(sf, node)}: ${node.getText().slice(0, 60)}`);
				ts.forEachChild(node, visit);
			};
			visit(sf);
		}
		expect(found).toEqual([]);
	});
});

describe('state', () => {
	/**
	 * Module-level values are shared by every execution of every workflow in an n8n
	 * process: state belongs in the run scope (nodes/shared/run-scope.ts). Lookup tables
	 * are fine when typed read-only.
	 */
	it('nodes/ and credentials/ keep no mutable state at module level', () => {
		// The one exception, named: the polls' turns (polling/turns.ts) are the process's by design
		// (polls of one node in one process, n8n-internals 10), keyed by workflow and node, bounded.
		const processWide = new Set(['nodes/shared/polling/turns.ts followed']);
		const excepted: string[] = [];
		const found: string[] = [];
		for (const file of packFiles) {
			const sf = parse(file);
			for (const st of sf.statements) {
				if (!ts.isVariableStatement(st)) continue;
				if (!(st.declarationList.flags & ts.NodeFlags.Const))
					found.push(`${where(sf, st)}: let/var at module level`);
				for (const d of st.declarationList.declarations) {
					const init = d.initializer;
					if (!init || !ts.isNewExpression(init)) continue;
					const named = `${relative(ROOT, file)} ${d.name.getText()}`;
					if (processWide.has(named)) {
						excepted.push(named);
						continue;
					}
					const made = init.expression.getText();
					const type = d.type?.getText() ?? '';
					if (/^Weak(Map|Set)$/.test(made)) found.push(`${where(sf, st)}: new ${made}`);
					else if (/^(Map|Set)$/.test(made) && !type.startsWith(`Readonly${made}`))
						found.push(
							`${where(sf, st)}: new ${made} (type it Readonly${made}, or keep it in the run scope)`,
						);
				}
			}
		}
		expect(found).toEqual([]);
		// The exception names a map that exists: it cannot outlive a move of the code it allows.
		expect(excepted).toEqual([...processWide]);
	});

	/**
	 * Tunables and clocks are passed in (nodes/shared/tuning.ts: a node built with a tuning hands
	 * it to its run scope), so no test, benchmark or script rewrites a value of the pack's modules:
	 * no assignment to a property of a binding imported from nodes/ or credentials/, and no
	 * Object.assign or Object.defineProperty onto one.
	 */
	it('no test, benchmark or script rewrites a value of the pack (tunables and clocks are passed in)', () => {
		const found: string[] = [];
		const devFiles = ['test', 'bench', 'scripts', 'testbed'].flatMap((d) =>
			sourceFiles(join(ROOT, d)),
		);
		for (const file of devFiles) {
			const sf = parse(file);
			const imported = new Set<string>();
			for (const st of sf.statements) {
				if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
				if (!/\/(nodes|credentials)\//.test(st.moduleSpecifier.text)) continue;
				const bindings = st.importClause?.namedBindings;
				if (bindings && ts.isNamedImports(bindings))
					for (const e of bindings.elements) imported.add(e.name.text);
				if (bindings && ts.isNamespaceImport(bindings)) imported.add(bindings.name.text);
			}
			const rootOf = (e: ts.Expression): string | undefined => {
				while (
					ts.isPropertyAccessExpression(e) ||
					ts.isElementAccessExpression(e) ||
					ts.isParenthesizedExpression(e) ||
					ts.isAsExpression(e) ||
					ts.isNonNullExpression(e)
				)
					e = e.expression;
				return ts.isIdentifier(e) ? e.text : undefined;
			};
			const visit = (node: ts.Node) => {
				if (
					ts.isBinaryExpression(node) &&
					node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
					(ts.isPropertyAccessExpression(node.left) || ts.isElementAccessExpression(node.left))
				) {
					const root = rootOf(node.left);
					if (root && imported.has(root))
						found.push(`${where(sf, node)}: ${node.left.getText()} = …`);
				}
				if (
					ts.isCallExpression(node) &&
					/^Object\.(assign|defineProperty|defineProperties)$/.test(node.expression.getText()) &&
					node.arguments[0]
				) {
					const root = rootOf(node.arguments[0]);
					if (root && imported.has(root))
						found.push(`${where(sf, node)}: ${node.expression.getText()}(${root}, …)`);
				}
				ts.forEachChild(node, visit);
			};
			visit(sf);
		}
		expect(found).toEqual([]);
	});
});

const actionNodes = Object.entries(NODE_TYPES).filter(
	([name, node]) => !name.endsWith('.testTransport') && !node.description.group.includes('trigger'),
) as Array<[string, INodeType]>;

/** "Get Many by IDs" → getManyByIds. */
const camelCase = (name: string) =>
	name
		.split(/[^A-Za-z0-9]+/)
		.filter(Boolean)
		.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase()))
		.join('');

describe('one hop from an endpoint’s name to its code', () => {
	it.each(actionNodes)(
		'%s: each Resource → Operation is nodes/<Node>/resources/<resource>/<operation value or name>.ts',
		(_name, node) => {
			const folder = join(
				ROOT,
				'nodes',
				node.description.name.replace(/^./, (c) => c.toUpperCase()),
				'resources',
			);
			const resource = node.description.properties.find((p) => p.name === 'resource')!;
			const missing: string[] = [];
			for (const r of resource.options as Array<{ value: string }>) {
				const ops = node.description.properties.find(
					(p) =>
						p.name === 'operation' &&
						(p.displayOptions?.show?.resource as string[]).includes(r.value),
				)!;
				for (const o of ops.options as Array<{ value: string; name: string }>) {
					// Custom API Call, the last option of every list, is one operation for all: nodes/shared/engine/custom-call.ts.
					if (o.value === CUSTOM_CALL) continue;
					// Named after its value, or after its name where the value says less (Get Many by IDs: getManyByIds.ts, value getMany).
					const files = [o.value, camelCase(o.name)].map((f) => join(folder, r.value, `${f}.ts`));
					const found = files.some((file) => {
						try {
							return readFileSync(file, 'utf8').includes(`value: '${o.value}'`);
						} catch {
							return false;
						}
					});
					if (!found) missing.push(relative(ROOT, files[0]));
				}
			}
			expect(missing).toEqual([]);
		},
	);
});

const pollingTriggers = Object.entries(NODE_TYPES).filter(
	([, node]) => (node.description as INodeTypeDescription).polling === true,
) as Array<[string, INodeType]>;

describe('one hop from a polling event’s name to its code', () => {
	it('there are the People, Campaigns and Table polling triggers', () => {
		expect(pollingTriggers.map(([, n]) => n.description.name).sort()).toEqual([
			'businessPlatformCampaignsTrigger',
			'businessPlatformPeopleTrigger',
			'businessPlatformTableTrigger',
		]);
	});

	it.each(pollingTriggers)('%s: each Event is nodes/<Node>/events/<event>.ts', (_name, node) => {
		const folder = join(
			ROOT,
			'nodes',
			node.description.name.replace(/^./, (c) => c.toUpperCase()),
			'events',
		);
		const event = node.description.properties.find((p) => p.name === 'event')!;
		const missing = (event.options as Array<{ value: string }>)
			.map((o) => join(folder, `${o.value}.ts`))
			.filter((file) => {
				try {
					return !readFileSync(file, 'utf8').includes(
						`value: '${file.split('/').pop()!.replace(/\.ts$/, '')}'`,
					);
				} catch {
					return true;
				}
			});
		expect(missing.map((f) => relative(ROOT, f))).toEqual([]);
	});
});

/** Every picker a property names (also inside collections and resource locator modes). */
function pickerNames(properties: INodeProperties[]): Array<[kind: string, name: string]> {
	const out: Array<[string, string]> = [];
	const visit = (p: IDataObject) => {
		const t = (p.typeOptions ?? {}) as IDataObject;
		if (typeof t.loadOptionsMethod === 'string') out.push(['loadOptions', t.loadOptionsMethod]);
		if (typeof t.searchListMethod === 'string') out.push(['listSearch', t.searchListMethod]);
		const mapper = t.resourceMapper as IDataObject | undefined;
		if (typeof mapper?.resourceMapperMethod === 'string')
			out.push(['resourceMapping', mapper.resourceMapperMethod]);
		for (const child of [
			...((p.options as IDataObject[] | undefined) ?? []),
			...((p.values as IDataObject[] | undefined) ?? []),
			...((p.modes as IDataObject[] | undefined) ?? []),
		]) {
			if (child && typeof child === 'object') visit(child);
		}
	};
	properties.forEach((p) => visit(p as unknown as IDataObject));
	return out;
}

/** Each version of a versioned node type (the Sales Trigger: versions 1 to 3, and 4). */
const versionedNodes = Object.entries(NODE_TYPES).flatMap(([name, node]) =>
	'nodeVersions' in node
		? [...new Set(Object.values(node.nodeVersions))].map(
				(v) => [`${name} v${String(v.description.version)}`, v] as [string, INodeType],
			)
		: [],
);

describe('pickers', () => {
	it.each([...actionNodes, ...pollingTriggers, ...versionedNodes])(
		'%s: every picker a field names exists in the node’s methods',
		(_name, node) => {
			const methods = node.methods as Record<string, Record<string, unknown>>;
			const missing = pickerNames(node.description.properties).filter(
				([kind, name]) => typeof methods[kind]?.[name] !== 'function',
			);
			expect(missing).toEqual([]);
		},
	);

	const op = {
		value: 'get',
		name: 'Get',
		action: 'Get',
		description: 'Get',
		method: 'GET' as const,
		path: '/x',
	};
	const one = async () => ({ results: [] });
	const other = async () => ({ results: [] });
	const resource = (value: string, search: typeof one): Resource => ({
		value,
		name: value,
		operations: [op],
		methods: { listSearch: { searchThings: search } },
	});

	it('two resources may share one picker', () => {
		expect(Object.keys(mergeMethods([resource('a', one), resource('b', one)]).listSearch)).toEqual([
			'searchThings',
		]);
	});

	it('two different pickers under one name fail when the node is loaded, naming both resources', () => {
		expect(() => mergeMethods([resource('deal', one), resource('contact', other)])).toThrow(
			'Two different listSearch pickers are named "searchThings" (resources "deal" and "contact"): rename one of them',
		);
	});
});
