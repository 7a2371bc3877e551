/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The repository's imports run one way. Read from every source file's relative imports
 * (`import … from`, `import()`, `require()`, `jest.mock()`), at every folder:
 * - the folder's children (its files and its subfolders, each as one unit) import each other
 *   without a circle; any circle between files shows as one here, at the folder where its
 *   files part, so this also forbids every file-level circle;
 * - the top-level rooms import each other one way, as ROOMS says: the pack (`nodes/`,
 *   `credentials/`) and the platform's simulator (`sandbox/`) import none of the development
 *   rooms; `testbed/` (what runs n8n, its servers and Chromium for tests and benchmarks) stands on
 *   them; the demo on the testbed; the npm scripts' entry points (`scripts/`) and the benchmarks
 *   (`bench/`) on those; and only `test/` imports `test/`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const SKIP = /(^|\/)(node_modules|dist|\.n8n-runtime|\.git|coverage)(\/|$)/;
const EXTENSIONS = ['', '.ts', '.js', '.mjs', '.cjs', '/index.ts', '/index.js'];

type Graph = Map<string, Set<string>>;

function sourceFiles(): string[] {
	return readdirSync(ROOT, { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile() && /\.(ts|js|mjs|cjs)$/.test(e.name))
		.map((e) => relative(ROOT, join(e.parentPath, e.name)))
		.filter((f) => !SKIP.test(f));
}

function resolveImport(from: string, spec: string): string | undefined {
	const base = resolve(ROOT, dirname(from), spec);
	for (const ext of EXTENSIONS) {
		const path = base + ext;
		if (existsSync(path) && statSync(path).isFile()) return relative(ROOT, path);
	}
	return undefined;
}

/** Every file's relative imports (text in template strings is not code: generated files are left out). */
function importGraph(files: string[]): Graph {
	const graph: Graph = new Map();
	for (const file of files) {
		const text = readFileSync(join(ROOT, file), 'utf8').replace(
			/`(?:\\.|\$\{[^}]*\}|[^`\\])*`/g,
			'``',
		);
		const targets = new Set<string>();
		for (const m of text.matchAll(
			/(?:from\s+|import\s*\(\s*|require\s*\(\s*|jest\.mock\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g,
		)) {
			const target = resolveImport(file, m[1]);
			if (target) targets.add(target);
		}
		graph.set(file, targets);
	}
	return graph;
}

/** The unit of `file` among the children of `dir` ('' is the root), or undefined when it is not below `dir`. */
function unitOf(dir: string, file: string): string | undefined {
	if (dir && !file.startsWith(`${dir}/`)) return undefined;
	return (dir ? file.slice(dir.length + 1) : file).split('/')[0];
}

/** The circles among the children of each folder, as "folder: a → b, b → a". */
export function circles(graph: Graph): string[] {
	const dirs = new Set<string>(['']);
	for (const file of graph.keys())
		for (let d = dirname(file); d !== '.'; d = dirname(d)) dirs.add(d);
	const found: string[] = [];
	for (const dir of [...dirs].sort()) {
		const units: Graph = new Map();
		for (const [file, targets] of graph) {
			const a = unitOf(dir, file);
			if (a === undefined) continue;
			for (const target of targets) {
				const b = unitOf(dir, target);
				if (b === undefined || a === b) continue;
				if (!units.has(a)) units.set(a, new Set());
				units.get(a)!.add(b);
			}
		}
		for (const scc of stronglyConnected(units)) {
			const arrows = scc.flatMap((a) =>
				[...(units.get(a) ?? [])].filter((b) => scc.includes(b)).map((b) => `${a} → ${b}`),
			);
			found.push(`${dir || '.'}: ${arrows.sort().join(', ')}`);
		}
	}
	return found;
}

/** Tarjan's strongly connected components of more than one node (iterative: no deep recursion). */
function stronglyConnected(graph: Graph): string[][] {
	const nodes = new Set<string>([...graph.keys(), ...[...graph.values()].flatMap((s) => [...s])]);
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const out: string[][] = [];
	let next = 0;
	for (const start of nodes) {
		if (index.has(start)) continue;
		const work: Array<{ v: string; edges: string[]; i: number }> = [];
		const open = (v: string) => {
			index.set(v, next);
			low.set(v, next++);
			stack.push(v);
			onStack.add(v);
			work.push({ v, edges: [...(graph.get(v) ?? [])], i: 0 });
		};
		open(start);
		while (work.length) {
			const top = work[work.length - 1];
			if (top.i < top.edges.length) {
				const w = top.edges[top.i++];
				if (!index.has(w)) open(w);
				else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!));
				continue;
			}
			work.pop();
			if (work.length)
				low.set(
					work[work.length - 1].v,
					Math.min(low.get(work[work.length - 1].v)!, low.get(top.v)!),
				);
			if (low.get(top.v) === index.get(top.v)) {
				const scc: string[] = [];
				let w: string;
				do {
					w = stack.pop()!;
					onStack.delete(w);
					scc.push(w);
				} while (w !== top.v);
				if (scc.length > 1) out.push(scc.sort());
			}
		}
	}
	return out;
}

/**
 * What each top-level room may import besides itself ('.' is the repository's own files, such as
 * jest.config.js). A room that is not listed fails until it is: a new folder says where it stands.
 */
export const ROOMS: Readonly<Record<string, readonly string[]>> = {
	'.': [],
	nodes: [],
	credentials: ['nodes'],
	sandbox: [],
	testbed: ['nodes', 'credentials', 'sandbox'],
	demo: ['testbed', 'sandbox'],
	scripts: ['demo', 'testbed', 'sandbox', 'nodes', 'credentials'],
	bench: ['demo', 'testbed', 'sandbox', 'nodes', 'credentials'],
	test: ['scripts', 'bench', 'demo', 'testbed', 'sandbox', 'nodes', 'credentials'],
};

const roomOf = (file: string) => (file.includes('/') ? file.split('/')[0] : '.');

/** Imports that run against ROOMS (`rooms`), as "file → target (a may not import b)". */
export function againstRooms(
	graph: Graph,
	rooms: Readonly<Record<string, readonly string[]>> = ROOMS,
): string[] {
	const found: string[] = [];
	for (const [file, targets] of graph) {
		const a = roomOf(file);
		const allowed = rooms[a];
		if (!allowed) {
			found.push(`${file}: the room ${a}/ has no place in ROOMS`);
			continue;
		}
		for (const target of targets) {
			const b = roomOf(target);
			if (b !== a && !allowed.includes(b))
				found.push(`${file} → ${target} (${a}/ may not import ${b}/)`);
		}
	}
	return found;
}

describe('the import graph', () => {
	const graph = importGraph(sourceFiles());

	it('reads the repository (its node files, scripts, bench, sandbox and tests)', () => {
		expect(graph.size).toBeGreaterThan(300);
		expect(graph.get('nodes/shared/engine/item.ts')).toContain('nodes/shared/transport.ts');
	});

	it('has no circle at any folder, between files or between folders', () => {
		expect(circles(graph)).toEqual([]);
	});

	it('has its top-level rooms import each other one way (ROOMS), nothing outside test/ importing test/', () => {
		expect(againstRooms(graph)).toEqual([]);
		for (const room of ['testbed', 'demo', 'scripts', 'bench', 'sandbox'])
			expect([...graph.keys()].some((f) => f.startsWith(`${room}/`))).toBe(true);
	});

	it('finds a circle between files, one between folders, and imports against the rooms', () => {
		const g: Graph = new Map([
			['nodes/shared/a.ts', new Set(['nodes/shared/b.ts'])],
			['nodes/shared/b.ts', new Set(['nodes/shared/a.ts'])],
			['nodes/shared/engine/x.ts', new Set(['nodes/shared/c.ts'])],
			['nodes/shared/c.ts', new Set(['nodes/shared/engine/y.ts'])],
			['bench/run.ts', new Set(['test/helpers/sandbox.ts', 'testbed/harness/run.ts'])],
			['testbed/n8n/start.ts', new Set(['scripts/test.ts', 'testbed/processes.ts'])],
			['sandbox/src/server.ts', new Set(['testbed/ports.ts'])],
			['tools/x.ts', new Set(['nodes/shared/a.ts'])],
		]);
		expect(circles(g)).toEqual([
			'nodes/shared: a.ts → b.ts, b.ts → a.ts',
			'nodes/shared: c.ts → engine, engine → c.ts',
		]);
		expect(againstRooms(g)).toEqual([
			'bench/run.ts → test/helpers/sandbox.ts (bench/ may not import test/)',
			'testbed/n8n/start.ts → scripts/test.ts (testbed/ may not import scripts/)',
			'sandbox/src/server.ts → testbed/ports.ts (sandbox/ may not import testbed/)',
			'tools/x.ts: the room tools/ has no place in ROOMS',
		]);
	});
});
