/**
 * A polling trigger node run the way n8n runs it: `poll()` in n8n-core's PollContext, with the
 * workflow's static data. n8n saves static data when a poll's items start an execution (and
 * when the workflow is activated), not after a poll that found nothing; a restart reloads what
 * was saved. `restart()` does the same here.
 */
import { PollContext } from 'n8n-core';
import type {
	IDataObject,
	INodeExecutionData,
	IPollFunctions,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import {
	additionalData,
	CREDENTIAL_TYPE,
	NODE_TYPES,
	PACKAGE,
	triggerWorkflow,
	type Harness,
} from './n8n';

export class Poller {
	/** The workflow's static data in memory (n8n's `workflow.staticData`). */
	private staticData: IDataObject = {};

	/** What n8n saved to its database, which a restart loads. */
	private saved = '{}';

	private activated = false;

	constructor(
		private readonly h: Harness,
		private readonly type: string,
		private parameters: IDataObject,
	) {}

	/** The credential the node uses, by its ID in the harness's store (default: the harness's own). */
	private credentialId?: string;

	/** The parameters of the node from now on (a user edits the trigger and saves the workflow: n8n activates it again). */
	edit(parameters: IDataObject): void {
		this.parameters = parameters;
		this.activated = false;
	}

	/** The credential of the node from now on (a user picks another one and saves the workflow: n8n activates it again). */
	useCredential(id: string): void {
		this.credentialId = id;
		this.activated = false;
	}

	/**
	 * One poll: the items n8n would start an execution with, or null. `manual` is the editor's
	 * "Fetch Test Event" (its static data is never saved).
	 */
	async poll(mode: WorkflowExecuteMode = 'trigger'): Promise<IDataObject[] | null> {
		const node = this.h.node(this.type, this.parameters, 'Poll');
		if (this.credentialId)
			node.credentials = { [CREDENTIAL_TYPE]: { id: this.credentialId, name: this.credentialId } };
		const workflow = triggerWorkflow(
			node,
			mode === 'manual'
				? (JSON.parse(JSON.stringify(this.staticData)) as IDataObject)
				: this.staticData,
		);
		const ctx = new PollContext(
			workflow,
			node,
			additionalData(this.h.credentials),
			mode,
			this.activated ? 'update' : 'activate',
		);
		const nodeType = NODE_TYPES[`${PACKAGE}.${this.type}`];
		const result = (await nodeType.poll!.call(ctx as unknown as IPollFunctions)) as
			| INodeExecutionData[][]
			| null;
		if (mode === 'manual') return result ? result[0].map((i) => i.json) : null;
		if (!this.activated || result !== null) this.saved = JSON.stringify(this.staticData);
		this.activated = true;
		return result ? result[0].map((i) => i.json) : null;
	}

	/** n8n restarts: the static data is what was last saved. */
	restart(): void {
		this.staticData = JSON.parse(this.saved) as IDataObject;
	}

	/** The node's static data as n8n would save it now. */
	get nodeData(): IDataObject {
		return (this.staticData['node:Poll'] as IDataObject | undefined) ?? {};
	}
}
