/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The order in which one piece of work calls into the pack's files, for `npm run bench:hops`.
 * A worker thread debugs this (the main) thread through the inspector: it sets a breakpoint at
 * the first statement of every function of the given files, and each time one is hit it notes
 * the function's file and the file of the function that called it (the frame below; none when
 * n8n or a promise job called it). The main thread is paused only for that note. A *move* is a
 * call whose function lives in another file than its caller (or is called from outside the
 * pack); a move *back* is one into a file an earlier move already entered. Returns (the call
 * stack unwinding) and an `await` resuming are not calls, so they are not counted.
 */
import { Worker } from 'node:worker_threads';

/** A function of the pack, as V8's coverage names it (its script and its range in the script's source). */
export interface TracedFunction {
	scriptId: string;
	/** Its file, relative to the repository. */
	file: string;
	name: string;
	start: number;
	end: number;
}

export interface Move {
	/** The caller's file; none when n8n or a promise job called (an \`await\` resuming, a callback). */
	from?: string;
	/** The caller and the line of its call (in the file as tsx compiled it). */
	caller?: string;
	line?: number;
	to: string;
	fn: string;
}

/** Runs in the worker: plain JavaScript (a worker does not go through tsx). */
const WORKER = `
const { parentPort } = require('node:worker_threads');
const { Session } = require('node:inspector/promises');
const session = new Session();
session.connectToMainThread();
const moves = [];
let tracing = false;
/** The file of each script the traced functions are in (a paused frame names its script by ID). */
const files = new Map();
session.on('Debugger.paused', ({ params }) => {
	if (tracing) {
		const [top, below] = params.callFrames;
		const to = files.get(top.location.scriptId);
		const from = below ? files.get(below.location.scriptId) : undefined;
		moves.push({
			to,
			fn: top.functionName,
			from,
			caller: from ? below.functionName : undefined,
			line: from ? below.location.lineNumber : undefined,
		});
	}
	session.post('Debugger.resume').catch(() => undefined);
});
parentPort.on('message', async (message) => {
	if (message.arm) {
		await session.post('Debugger.enable');
		const sources = new Map();
		for (const f of message.arm) {
			const scriptId = f.scriptId;
			files.set(scriptId, f.file);
			if (!sources.has(scriptId)) {
				const source = (await session.post('Debugger.getScriptSource', { scriptId })).scriptSource;
				const starts = [0];
				for (let i = 0; i < source.length; i++) if (source[i] === '\\n') starts.push(i + 1);
				sources.set(scriptId, { source, starts });
			}
			const { source, starts } = sources.get(scriptId);
			const at = (offset) => {
				let line = 0;
				while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
				return { scriptId, lineNumber: line, columnNumber: offset - starts[line] };
			};
			// esbuild's module helpers (__name, __export…) and the export getters it writes (\`name: () => name\`) are not the pack's code.
			if (f.name.startsWith('__') || f.name === 'get') continue;
			if (/^\\(\\)\\s*=>\\s*[\\w$]+$/.test(source.slice(f.start, f.end))) continue;
			const { locations } = await session.post('Debugger.getPossibleBreakpoints', {
				start: at(f.start), end: at(f.end), restrictToFunction: true,
			});
			if (locations[0]) await session.post('Debugger.setBreakpoint', { location: locations[0] }).catch(() => undefined);
		}
		tracing = true;
		parentPort.postMessage('armed');
	} else if (message === 'stop') {
		tracing = false;
		await session.post('Debugger.disable');
		parentPort.postMessage(moves);
	}
});
parentPort.postMessage('ready');
`;

/** The moves between the pack's files while `work` runs (its modules already loaded: run it once before). */
export async function traceCalls(
	functions: TracedFunction[],
	work: () => Promise<void>,
): Promise<Move[]> {
	const worker = new Worker(WORKER, { eval: true });
	const next = async <T>(): Promise<T> =>
		await new Promise<T>((resolve, reject) => {
			worker.once('message', resolve);
			worker.once('error', reject);
		});
	try {
		await next<'ready'>();
		worker.postMessage({ arm: functions });
		await next<'armed'>();
		await work();
		worker.postMessage('stop');
		const calls = await next<Array<Omit<Move, 'to'> & { to?: string }>>();
		// The first call is n8n's; later calls from outside the pack resume code that awaited, or call it back.
		return calls.filter(
			(c, i): c is Move =>
				c.to !== undefined && (i === 0 || (c.from !== undefined && c.from !== c.to)),
		);
	} finally {
		await worker.terminate();
	}
}

export interface Counted {
	/** Every call into another file, and how many of those enter a file an earlier one entered. */
	calls: number;
	callsBack: number;
	/** The moves as a reader follows them: each call site once (a loop's call, or a function called twice from one place, is one move). */
	lines: string[];
	moves: number;
	back: number;
}

/** Counts the moves, and lists them as a reader follows them, with "back" where one enters a file an earlier move entered. */
export function countMoves(all: Move[]): Counted {
	const entered = new Set<string>();
	const sites = new Set<string>();
	let callsBack = 0;
	let back = 0;
	const lines: string[] = [];
	for (const m of all) {
		const again = entered.has(m.to);
		if (again) callsBack++;
		entered.add(m.to);
		const site = `${m.from}:${m.caller}:${m.line} → ${m.to}:${m.fn}`;
		if (sites.has(site)) continue;
		sites.add(site);
		if (again) back++;
		const from = m.from ? `${m.from} ${m.caller || '(arrow)'}` : '(n8n)';
		lines.push(
			`  ${String(lines.length + 1).padStart(2)}. ${from} → ${m.to} ${m.fn || '(arrow)'}${again ? '  [back]' : ''}`,
		);
	}
	return { calls: all.length, callsBack, lines, moves: lines.length, back };
}
