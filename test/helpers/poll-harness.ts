/**
 * A polling trigger node run the way n8n runs it: `poll()` in n8n-core's PollContext, with the
 * workflow's static data, under one of n8n's schedulers (n8n-internals, 6 and 7):
 * - `default`: every poll of the node works on the one static data object in memory. n8n saves
 *   it when a poll's items start an execution and when the workflow is activated, not after a
 *   poll that found nothing; a restart reloads what was saved.
 * - `durable` (N8N_SCHEDULER_ENABLED): each poll loads what was saved and works on its own copy;
 *   saving as above. A poll past its budget is abandoned: its result is thrown away.
 * - `durableCursors` (N8N_POLLER_DURABLE_CURSORS_ENABLED as well): the node's static data is a
 *   copy of the committed cursor; n8n commits it with the execution of the poll's items, or after
 *   a poll without items, but not after the poll it runs when the workflow is published (a test
 *   poll) nor after an abandoned one; the node may commit it itself (__commitCursor). Two runs
 *   of one poll: the first to commit wins, the other's commit is refused (fenced on the lease).
 */
import { PollContext } from 'n8n-core';
import type {
	IDataObject,
	INodeExecutionData,
	IPollFunctions,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { additionalData } from '../../testbed/harness/additional-data';
import { CREDENTIAL_TYPE } from '../../testbed/harness/credentials';
import { harnessNodeTypes, nodeTypeOf, PACKAGE } from '../../testbed/harness/nodes';
import { type Harness } from '../../testbed/harness/run';
import { triggerWorkflow } from '../../testbed/harness/triggers';

export type Scheduler = 'default' | 'durable' | 'durableCursors';

export interface PollerOptions {
	scheduler?: Scheduler;
	/**
	 * Which end of the tested n8n range the poll context is like: `newest` (2.41: getPollBudgetMs,
	 * __commitCursor; a poll of a workflow published again meanwhile is thrown away) or `oldest`
	 * (1.x: neither; such a poll ends and starts an execution of the former version, which saves
	 * its static data). Only the default scheduler exists on 1.x.
	 */
	n8n?: 'newest' | 'oldest';
	/** What getPollBudgetMs gives (default: n8n-core's own). */
	budgetMs?: number;
	/** The clock polls are measured with (past the budget: abandoned, except under `default`). */
	now?: () => number;
	/** The node's type version (default 1). */
	typeVersion?: number;
}

type Items = IDataObject[] | null;
let pollers = 0;

export class Poller {
	/** The workflow's static data in memory (n8n's `workflow.staticData`). */
	private staticData: IDataObject = {};

	/** What n8n saved to its database (the committed cursor, with durable cursors), which a restart and every durable poll load. */
	private saved = '{}';

	/** Bumped by every commit: a run whose commit finds another commit since it began is refused (durable cursors). */
	private commits = 0;

	private activated = false;

	/** Counts the activations (default scheduler: each has its own static data object, loaded from what was saved). */
	private activation = 0;

	/** What the polls said in n8n's log at warning level, in order. */
	readonly warnings: string[] = [];

	/** The rows of the state machine each poll went through (its debug log line), in the order the polls ended. */
	readonly paths: string[] = [];

	/** The workflow's ID, the same for every poll (n8n-internals 10 follows polls by it). */
	private readonly workflowId = `wf-poller-${++pollers}`;

	/** The polls n8n abandoned (durable schedulers): past the budget, or told to. */
	abandoned = 0;

	/** What getPollBudgetMs gives from now on (undefined: n8n-core's own). */
	budgetMs?: number;

	constructor(
		private readonly h: Harness,
		private readonly type: string,
		private parameters: IDataObject,
		private readonly options: PollerOptions = {},
	) {
		this.budgetMs = options.budgetMs;
	}

	/** The credential the node uses, by its ID in the harness's store (default: the harness's own). */
	private credentialId?: string;

	/** The parameters of the node from now on (a user edits the trigger and saves the workflow: n8n activates it again). */
	edit(parameters: IDataObject): void {
		this.parameters = parameters;
		this.activate();
	}

	/** n8n activates the workflow again: a new Workflow object, its static data loaded from what was saved. */
	private activate(): void {
		this.activated = false;
		this.activation++;
		this.staticData = JSON.parse(this.saved) as IDataObject;
	}

	/** The credential of the node from now on (a user picks another one and saves the workflow: n8n activates it again). */
	useCredential(id: string, name = id): void {
		this.credentialId = id;
		this.credentialName = name;
		this.activate();
	}

	private credentialName?: string;

	/** The workflow is published again, unchanged: n8n runs its activation poll once more. */
	republish(): void {
		this.activate();
	}

	/** The workflow is deleted and created again with the same IDs (an import): nothing saved, then published. */
	recreate(): void {
		this.saved = '{}';
		this.activate();
	}

	private get scheduler(): Scheduler {
		return this.options.scheduler ?? 'default';
	}

	/**
	 * One poll: the items n8n would start an execution with, or null. `manual` is the editor's
	 * "Fetch Test Event" (its static data is never saved). `abandon`: n8n gives up on the poll
	 * whatever it returns (durable schedulers).
	 */
	async poll(mode: WorkflowExecuteMode = 'trigger', abandon = false): Promise<Items> {
		if (mode === 'manual' || this.scheduler === 'default') return await this.pollInMemory(mode);
		const [result] = await this.runs(1, abandon);
		return result;
	}

	/** One poll run twice at once from the same saved state (durable cursors: n8n is at-least-once); what each run delivered. */
	async pollTwice(): Promise<Items[]> {
		return await this.runs(2, false);
	}

	/**
	 * Two polls of the node (two tasks, each under its own lease) from the same saved state, both
	 * committed (n8n-internals 10): `together`, they run at once (a task run again after a
	 * restart beside the next Poll Time's); otherwise the second starts after the first returned
	 * but before its delivery was committed. What each delivered.
	 */
	async pollOverlapping(together: boolean): Promise<Items[]> {
		if (this.scheduler === 'default')
			return together
				? await Promise.all([this.poll(), this.poll()])
				: [await this.poll(), await this.poll()];
		const state = this.saved;
		if (together)
			return await Promise.all([this.runs(1, false, state), this.runs(1, false, state)]).then((r) =>
				r.flat(),
			);
		const first = await this.runs(1, false, state);
		return [...first, ...(await this.runs(1, false, state))];
	}

	private async pollInMemory(mode: WorkflowExecuteMode): Promise<Items> {
		const data =
			mode === 'manual'
				? (JSON.parse(JSON.stringify(this.staticData)) as IDataObject)
				: this.staticData;
		const [activation, activated] = [this.activation, this.activated];
		const result = await this.call(mode, data, activated);
		if (mode === 'manual') return result;
		if (activation === this.activation) this.activated = true;
		if (activation !== this.activation) {
			// The workflow was published again while this poll ran: n8n 2.41 throws the result away
			// (isCurrent); 1.x starts an execution of the former version and saves its static data.
			if (this.options.n8n !== 'oldest' || result === null) return null;
			this.saved = JSON.stringify(data);
			return result;
		}
		if (!activated || result !== null) this.saved = JSON.stringify(this.staticData);
		return result;
	}

	/**
	 * `count` runs of one poll, each on a copy of what was saved (durable schedulers), or of
	 * `state` (what another task loaded earlier: its commits are not fenced against this one's).
	 */
	private async runs(count: number, abandon: boolean, state?: string): Promise<Items[]> {
		const testPoll = !this.activated;
		this.activated = true;
		const began = this.commits;
		const runs = Array.from({ length: count }, async () => {
			const loaded = state ?? this.saved;
			const data = JSON.parse(loaded) as IDataObject;
			const start = this.options.now?.() ?? 0;
			const commit = () => {
				// Fenced: a run commits only if nothing was committed since the poll began (runs of one
				// task); a task of its own (`state`) holds its own lease, and nothing fences it.
				if (state === undefined && this.commits !== began) return false;
				this.commits++;
				this.saved = JSON.stringify(data);
				return true;
			};
			const own = this.scheduler === 'durableCursors' ? async () => void commit() : undefined;
			const result = await this.call('trigger', data, !testPoll, own);
			const late =
				this.budgetMs !== undefined && (this.options.now?.() ?? 0) - start > this.budgetMs;
			// The poll at publishing runs outside the scheduler's tasks: no timeout, never abandoned.
			if ((abandon || late) && !testPoll) {
				this.abandoned++;
				return null;
			}
			if (this.scheduler === 'durable') {
				if (result !== null || testPoll) this.saved = JSON.stringify(data);
				return result;
			}
			if (result !== null) return commit() ? result : null;
			// n8n commits after a poll without items only what it changed (isEqual(snapshot, seed)).
			if (!testPoll && JSON.stringify(data) !== loaded) commit();
			return null;
		});
		return await Promise.all(runs);
	}

	private async call(
		mode: WorkflowExecuteMode,
		data: IDataObject,
		activated: boolean,
		commitCursor?: () => Promise<void>,
	): Promise<Items> {
		const node = this.h.node(this.type, this.parameters, 'Poll', this.options.typeVersion);
		if (this.credentialId)
			node.credentials = {
				[CREDENTIAL_TYPE]: {
					id: this.credentialId,
					name: this.credentialName ?? this.credentialId,
				},
			};
		const workflow = triggerWorkflow(node, data, this.workflowId);
		const budget = this.budgetMs;
		// n8n-core 2.41's PollContext takes the durable scheduler's hooks after `activation`; older ones ignore them.
		const Context = PollContext as unknown as new (...args: unknown[]) => PollContext;
		const ctx = new Context(
			workflow,
			node,
			additionalData(this.h.credentials),
			mode,
			activated ? 'update' : 'activate',
			undefined,
			undefined,
			commitCursor,
			undefined,
			undefined,
			budget === undefined ? undefined : () => budget,
		);
		const own = ctx as unknown as Record<string, unknown>;
		if (this.options.n8n === 'oldest') {
			delete own.getPollBudgetMs;
			delete own.__commitCursor;
		}
		const log = (message: unknown) => {
			if (typeof message === 'string' && message.startsWith('Poll of ')) this.paths.push(message);
		};
		const quiet = () => undefined;
		const warn = (message: unknown) => this.warnings.push(String(message));
		Object.defineProperty(ctx, 'logger', {
			value: { debug: log, info: quiet, warn, error: quiet },
		});
		const nodeType = nodeTypeOf(harnessNodeTypes()[`${PACKAGE}.${this.type}`], node.typeVersion);
		const result = (await nodeType.poll!.call(ctx as unknown as IPollFunctions)) as
			| INodeExecutionData[][]
			| null;
		return result ? result[0].map((i) => i.json) : null;
	}

	/** Changes what n8n saved for the node (a stale or odd value in its database); the next poll loads it. */
	editSaved(edit: (node: IDataObject) => void): void {
		const data = JSON.parse(this.saved) as IDataObject;
		edit((data['node:Poll'] ??= {}) as IDataObject);
		this.saved = JSON.stringify(data);
		this.staticData = JSON.parse(this.saved) as IDataObject;
	}

	/** n8n restarts: the static data is what was last saved (the pack's memory of polls is not reset: see machine.ts). */
	restart(): void {
		this.staticData = JSON.parse(this.saved) as IDataObject;
	}

	/** The rows of the last poll that ended ("P5 → P8 → P12"). */
	get lastPath(): string {
		return (this.paths.at(-1) ?? '').replace(/^Poll of "[^"]*": | \(\d+ items\)$/g, '');
	}

	/** The node's static data as n8n would save it now. */
	get nodeData(): IDataObject {
		const data =
			this.scheduler === 'default' ? this.staticData : (JSON.parse(this.saved) as IDataObject);
		return (data['node:Poll'] as IDataObject | undefined) ?? {};
	}
}
