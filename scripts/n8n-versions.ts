/**
 * The n8n versions the pack is tested on, pinned in one place. `N8N_TEST_VERSION`
 * picks one (default: the newest); each names the Node major it needs and the
 * overrides that make it install from this registry mirror, which lacks some of the
 * exact versions n8n asks for (../shared/notes/n8n-runtime.md).
 */
export interface N8nRuntimeSpec {
	n8n: string;
	node: string;
	overrides: Record<string, string>;
}

export const N8N_RUNTIMES: Record<string, N8nRuntimeSpec> = {
	'2.41.1': { n8n: '2.41.1', node: '24', overrides: { linkedom: '0.18.14', '@langchain/langgraph': '1.4.18', '@langchain/langgraph-sdk': '1.12.4' } },
};

export const DEFAULT_N8N_VERSION = '2.41.1';

/** The runtime this process uses: `N8N_TEST_VERSION` or the default. */
export function selectedRuntime(): N8nRuntimeSpec {
	const wanted = process.env.N8N_TEST_VERSION || DEFAULT_N8N_VERSION;
	const spec = N8N_RUNTIMES[wanted];
	if (!spec) throw new Error(`N8N_TEST_VERSION=${wanted} is not one of the pinned versions (${Object.keys(N8N_RUNTIMES).join(', ')}): add it to scripts/n8n-versions.ts`);
	return spec;
}
