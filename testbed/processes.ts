/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Every process the tests, the benchmarks and `npm start` start (n8n, a sandbox in its
 * own process, Redis, Postgres, a browser) goes through `spawnGroup`:
 * - it runs in its own process group, so stopping it also stops what it started
 *   (n8n's task runner, a browser's helpers);
 * - it carries the marker `BP_RUN_ID=<run>` in its environment, so a sweep can find it
 *   (and anything it started) even after the test file that started it crashed;
 * - it is stopped with SIGTERM, then SIGKILL after a short grace, on every path:
 *   `stopAll()` (afterAll), process exit, SIGINT/SIGTERM of the test worker (Ctrl-C).
 * After `closeSpawning()` (a test file's cleanup ran) a late spawn, say from a hook that
 * timed out and went on in the background, is killed at once instead of being left behind.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	readlinkSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The marker every managed process carries in its environment. */
export const RUN_ENV = 'BP_RUN_ID';
/** Where runs record their process groups (one folder per run, one file per group). */
export const RUNS_DIR = join(tmpdir(), 'bp-test-runs');

/** Where runs keep their scratch folders (n8n's user folders): one folder per run, removed with the run. */
export const RUN_FILES_DIR = join(tmpdir(), 'bp-test-files');

/**
 * A young generation twice Node's default for every process of a test run (scripts/test.ts sets it
 * for its jest runs, test/jest/setup.ts for any other, such as the editor suite's: jest's workers and
 * the n8ns, sandboxes and tools the tests start inherit NODE_OPTIONS): the tests allocate fast, and
 * fewer scavenges do the same work for fewer CPU-seconds (docs/performance.md, "What the test
 * machinery spares"). A semi-space size the caller set is kept.
 */
export function withYoungGeneration(options: string | undefined): string {
	if (options?.includes('--max-semi-space-size')) return options;
	return [options, '--max-semi-space-size=32'].filter(Boolean).join(' ');
}

/**
 * A fresh scratch folder of this run: removed when the run ends (`sweepRun` in jest's global
 * teardown), or by the next run when this one was killed. An n8n's user folder (the pack, its
 * database, the editor's files) is one, so no n8n start leaves one in the system's temporary
 * folder (docs/performance.md, What the test machinery spares).
 */
export function runScratch(prefix: string): string {
	const dir = join(RUN_FILES_DIR, runId());
	mkdirSync(dir, { recursive: true });
	return mkdtempSync(join(dir, prefix));
}

/** This run's id: set by jest's global setup for the whole run, or made up once per process. */
export function runId(): string {
	process.env[RUN_ENV] ??= `p${process.pid}-${randomUUID().slice(0, 8)}`;
	return process.env[RUN_ENV]!;
}

export interface Managed {
	name: string;
	pid: number;
	child: ChildProcess;
	/** Everything it printed so far (stdout and stderr), when piped. */
	output(): string;
	exited(): boolean;
	/** Resolves when the process has exited. Its last output may still be on its way: see `ended`. */
	exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
	/**
	 * Resolves when the process has exited and its output was read to the end (its stdout and stderr closed; Node's
	 * 'close'), so `output()` is complete: what to await before reading the output of a command that ran to its end.
	 * Never resolves while something it started keeps its output open.
	 */
	ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
	/** SIGTERM to its group, SIGKILL after `graceMs`; resolves once it is gone. */
	stop(graceMs?: number): Promise<void>;
}

/**
 * The processes (and in-process servers) to stop. Inside jest the test environment
 * (test/jest/environment.ts) puts one registry per test file on the file's global and
 * closes it after the file's last hook, even one that failed or timed out; elsewhere
 * (npm start, the benchmarks) a registry of this module is used.
 */
export interface Registry {
	closed: boolean;
	live: Set<Managed>;
	closers: Set<() => Promise<void> | void>;
	/** Synchronous last resorts for an exit that runs no closer (Ctrl-C): see `onExitSync`. */
	exitSync: Set<() => void>;
}

const REGISTRY_KEY = '__bpProcessRegistry';
let local: Registry | undefined;

export function createRegistry(): Registry {
	installHooks();
	const r: Registry = { closed: false, live: new Set(), closers: new Set(), exitSync: new Set() };
	registries.add(r);
	return r;
}

function registry(): Registry {
	return (
		((globalThis as Record<string, unknown>)[REGISTRY_KEY] as Registry | undefined) ??
		(local ??= createRegistry())
	);
}

/** Every registry of this process, for the exit and signal hooks. */
const registries = new Set<Registry>();
let hooked = false;
let scriptHandlesSignals = false;

/** For scripts that stop things themselves on Ctrl-C (npm start): the signal hooks leave it to them. */
export function handleSignalsInScript(): void {
	scriptHandlesSignals = true;
}

/** Whether a process with this pid exists. */
export const alive = (pid: number) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

function signalGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch {
		// the group is gone already
	}
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Synchronous stop of every live group (for exit and signal handlers, where nothing async runs). */
function stopAllSync(graceMs: number): void {
	const pids = [...registries]
		.flatMap((r) => [...r.live])
		.filter((m) => !m.exited())
		.map((m) => m.pid);
	pids.forEach((pid) => signalGroup(pid, 'SIGTERM'));
	const deadline = Date.now() + graceMs;
	while (pids.some(alive) && Date.now() < deadline) sleepSync(50);
	pids.forEach((pid) => signalGroup(pid, 'SIGKILL'));
}

/** After the processes are gone: every registry's synchronous last resorts (removing temp folders). */
function runExitSync(): void {
	for (const r of registries) {
		for (const fn of r.exitSync) {
			try {
				fn();
			} catch {
				// the next run's sweep gets what is left
			}
		}
		r.exitSync.clear();
	}
}

function installHooks(): void {
	if (hooked) return;
	hooked = true;
	process.once('exit', () => {
		stopAllSync(0);
		runExitSync();
	});
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.once(signal, () => {
			// A script with its own handler (npm start) stops things itself, politely; the exit
			// hook still catches what it leaves. Otherwise (a test worker): stop all, then exit.
			if (scriptHandlesSignals) return;
			stopAllSync(2000);
			process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
		});
	}
}

/** Something else to stop with the processes (an in-process server such as the sandbox). */
export function onCleanup(close: () => Promise<void> | void): () => void {
	const r = registry();
	if (r.closed) {
		void close();
		throw new Error(
			"started after this test file's cleanup ran (a hook probably timed out): stopped again",
		);
	}
	r.closers.add(close);
	return () => r.closers.delete(close);
}

/**
 * Something to do synchronously if this process exits before the closers ran (Ctrl-C, a
 * signal, process.exit): after every process of the registry was stopped. For what must not
 * outlive the process, such as a temp folder of data (the closer removes it on the normal path).
 */
export function onExitSync(fn: () => void): () => boolean {
	const r = registry();
	r.exitSync.add(fn);
	return () => r.exitSync.delete(fn);
}

function recordFile(pid: number): string {
	return join(RUNS_DIR, runId(), `${pid}`);
}

export interface GroupOptions extends Omit<SpawnOptions, 'detached' | 'stdio'> {
	/** Keep stdout/stderr in memory for `output()` (default true); false: inherit none. */
	capture?: boolean;
	/** Also append the output to this callback (for log files). */
	onOutput?: (chunk: string) => void;
	/** Default grace between SIGTERM and SIGKILL. */
	graceMs?: number;
}

/** Starts `cmd` in its own process group, marked with this run's id and registered for cleanup. */
export function spawnGroup(
	name: string,
	cmd: string,
	args: string[],
	opts: GroupOptions = {},
): Managed {
	const reg = registry();
	if (reg.closed)
		throw new Error(
			`${name} was not started: this test file's cleanup already ran (a hook probably timed out)`,
		);
	const { capture = true, onOutput, graceMs = 5000, env, ...rest } = opts;
	const child = spawn(cmd, args, {
		...rest,
		env: { ...(env ?? process.env), [RUN_ENV]: runId() },
		detached: true,
		stdio: [
			'ignore',
			capture || onOutput ? 'pipe' : 'ignore',
			capture || onOutput ? 'pipe' : 'ignore',
		],
	});
	if (child.pid === undefined) throw new Error(`${name} could not be started (${cmd})`);
	const pid = child.pid;
	let out = '';
	const take = (d: Buffer) => {
		const s = d.toString();
		if (capture) out = out.length > 2_000_000 ? out.slice(-1_000_000) + s : out + s;
		onOutput?.(s);
	};
	child.stdout?.on('data', take);
	child.stderr?.on('data', take);
	let done = false;
	const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
		child.once('exit', (code, signal) => {
			done = true;
			res({ code, signal });
		}),
	);
	const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
		child.once('close', (code, signal) => res({ code, signal })),
	);
	try {
		mkdirSync(join(RUNS_DIR, runId()), { recursive: true });
		writeFileSync(recordFile(pid), JSON.stringify({ name, owner: process.pid, cmd, args }));
	} catch {
		// the record only helps the sweep; the env marker is enough to find it
	}
	const managed: Managed = {
		name,
		pid,
		child,
		output: () => out,
		exited: () => done,
		exit,
		ended,
		async stop(grace = graceMs) {
			if (!done) {
				signalGroup(pid, 'SIGTERM');
				const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), grace);
				await exit;
				clearTimeout(timer);
			}
			// Whatever the leader left in its group (helpers that ignore SIGTERM) goes too.
			signalGroup(pid, 'SIGKILL');
			reg.live.delete(managed);
			rmSync(recordFile(pid), { force: true });
		},
	};
	reg.live.add(managed);
	void exit.then(() => {
		if (!reg.live.has(managed)) return;
		signalGroup(pid, 'SIGKILL');
		reg.live.delete(managed);
		rmSync(recordFile(pid), { force: true });
	});
	return managed;
}

/** Stops every process and server of a registry (default: the current one). */
export async function stopAll(graceMs?: number, r: Registry = registry()): Promise<void> {
	const closers = [...r.closers];
	r.closers.clear();
	await Promise.all([
		...[...r.live].map((m) => m.stop(graceMs)),
		...closers.map(async (c) => await c()),
	]);
}

/** The test file is done: stop everything, and refuse (stop at once) anything started later. */
export async function closeRegistry(r: Registry, graceMs?: number): Promise<void> {
	r.closed = true;
	await stopAll(graceMs, r);
	r.exitSync.clear();
	registries.delete(r);
}

/** Processes (pid, command) whose environment carries `BP_RUN_ID=<id>` (Linux: /proc). */
export function processesOfRun(id: string): Array<{ pid: number; cmd: string }> {
	const found: Array<{ pid: number; cmd: string }> = [];
	let pids: string[];
	try {
		pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
	} catch {
		return found;
	}
	const needle = `${RUN_ENV}=${id}\0`;
	for (const p of pids) {
		const pid = Number(p);
		if (pid === process.pid) continue;
		try {
			const environ = readFileSync(`/proc/${p}/environ`, 'latin1');
			if (!`${environ}\0`.includes(needle)) continue;
			const stat = readFileSync(`/proc/${p}/stat`, 'latin1');
			if (/^\d+ \(.*\) Z /.test(stat)) continue; // a zombie: gone, waiting for its parent
			let cmd = readFileSync(`/proc/${p}/cmdline`, 'latin1').replace(/\0/g, ' ').trim();
			if (!cmd) cmd = readlinkSync(`/proc/${p}/exe`);
			found.push({ pid, cmd });
		} catch {
			// gone, or not ours to read
		}
	}
	return found;
}

/**
 * Stops what a run left behind: its recorded groups and every process marked with its id.
 * `except` keeps the caller's own process tree (jest itself carries the run id).
 * Returns what it had to kill.
 */
export function sweepRun(id: string, except: number[] = []): Array<{ pid: number; cmd: string }> {
	const keep = new Set([process.pid, process.ppid, ...except]);
	const dir = join(RUNS_DIR, id);
	let groups: number[] = [];
	try {
		groups = readdirSync(dir)
			.map(Number)
			.filter((n) => n > 0);
	} catch {
		// nothing recorded
	}
	const strays = processesOfRun(id).filter((p) => !keep.has(p.pid) && !isJestOrNpm(p.cmd));
	const targets = [...new Set([...groups.filter(alive), ...strays.map((s) => s.pid)])];
	targets.forEach((pid) => {
		signalGroup(pid, 'SIGTERM');
		try {
			process.kill(pid, 'SIGTERM');
		} catch {
			// gone
		}
	});
	const deadline = Date.now() + 3000;
	while (targets.some(alive) && Date.now() < deadline) sleepSync(100);
	targets.forEach((pid) => {
		signalGroup(pid, 'SIGKILL');
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// gone
		}
	});
	rmSync(dir, { recursive: true, force: true });
	rmSync(join(RUN_FILES_DIR, id), { recursive: true, force: true });
	return strays;
}

/** jest, its workers and npm carry the run id too (they set it); the sweep must not kill them. */
function isJestOrNpm(cmd: string): boolean {
	return /(^|\/)(jest|npm)(\s|$)|jest-worker|node_modules\/\.bin\/jest|processChild\.js|npm-cli\.js/.test(
		cmd,
	);
}

/** Runs whose owner (the jest process that made them) is gone: their leftovers, swept. */
export function sweepAbandonedRuns(): Array<{ run: string; pid: number; cmd: string }> {
	const list = (dir: string) => {
		try {
			return readdirSync(dir);
		} catch {
			return [];
		}
	};
	const runs = [...new Set([...list(RUNS_DIR), ...list(RUN_FILES_DIR)])];
	const out: Array<{ run: string; pid: number; cmd: string }> = [];
	for (const run of runs) {
		if (run === process.env[RUN_ENV] || runAlive(run)) continue;
		for (const s of sweepRun(run)) out.push({ run, ...s });
	}
	return out;
}

/** Whether the process that owns the run (its jest, or the script that made it) still lives. */
export function runAlive(run: string): boolean {
	let owner = 0;
	try {
		owner = Number(JSON.parse(readFileSync(join(RUNS_DIR, run, 'owner.json'), 'utf8')).pid);
	} catch {
		const m = /^p(\d+)-/.exec(run);
		owner = m ? Number(m[1]) : 0;
	}
	return owner > 0 && alive(owner);
}

/** Marks this process as the owner of the run (jest's global setup). */
export function ownRun(id: string): void {
	mkdirSync(join(RUNS_DIR, id), { recursive: true });
	writeFileSync(join(RUNS_DIR, id, 'owner.json'), JSON.stringify({ pid: process.pid }));
}
