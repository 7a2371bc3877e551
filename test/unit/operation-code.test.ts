/**
 * Operations as data, code where it is needed: an operation without `execute` is its fields
 * to a request and the answer as items (nodes/shared/engine/execute.ts). One with its own
 * `execute` says why in `why`, and docs/ARCHITECTURE.md's "own code" section lists them all
 * (npm run docs:own-code rewrites it; npm test only compares).
 */
import { CAMPAIGNS_RESOURCES } from '../../nodes/BusinessPlatformCampaigns/resources';
import { PEOPLE_RESOURCES } from '../../nodes/BusinessPlatformPeople/resources';
import { SALES_RESOURCES } from '../../nodes/BusinessPlatformSales/resources';
import type { Operation, Resource } from '../../nodes/shared/engine/model';
import { checkDocSection } from '../helpers/ai-tools-doc';

const NODES: Array<[string, Resource[]]> = [
	['Sales', SALES_RESOURCES],
	['Campaigns', CAMPAIGNS_RESOURCES],
	['People', PEOPLE_RESOURCES],
];
const all: Array<{ node: string; resource: Resource; op: Operation }> = NODES.flatMap(
	([node, resources]) =>
		resources.flatMap((resource) => resource.operations.map((op) => ({ node, resource, op }))),
);

describe('operations with their own code', () => {
	it('every execute says why, and only an execute has a why', () => {
		const unexplained = all
			.filter(({ op }) => op.execute && !op.why?.trim())
			.map(({ node, resource, op }) => `${node} ${resource.name} → ${op.name}`);
		const idle = all
			.filter(({ op }) => !op.execute && op.why !== undefined)
			.map(({ node, resource, op }) => `${node} ${resource.name} → ${op.name}`);
		expect({ unexplained, idle }).toEqual({ unexplained: [], idle: [] });
	});

	it('docs/ARCHITECTURE.md lists them, with the count', () => {
		const own = all.filter(({ op }) => op.execute);
		const rows = own.map(
			({ node, resource, op }) =>
				`| ${node} | ${resource.name} → ${op.name} | ${op.why!.replace(/\|/g, '\\|')} |`,
		);
		const text = [
			`${own.length} of ${all.length} operations have their own \`execute\`; the other ${all.length - own.length} are data only (fields to a request, the answer as items). Custom API Call, on every node, has its own too (nodes/shared/engine/custom-call.ts).`,
			'',
			'| Node | Operation | Why it has its own code |',
			'| --- | --- | --- |',
			...rows,
		].join('\n');
		checkDocSection('docs/ARCHITECTURE.md', 'own-code', text, 'npm run docs:own-code');
	});
});
