import { createHarness } from '../../testbed/harness/run';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();

it('runs Contact → Get Many and Create through n8n-core against the sandbox', async () => {
	const h = createHarness(ctx.sb);
	const list = await h.run('businessPlatformSales', {
		resource: 'contact',
		operation: 'getAll',
		returnAll: false,
		limit: 3,
	});
	expect(list.error).toBeUndefined();
	expect(list.json).toHaveLength(3);
	const created = await h.run('businessPlatformSales', {
		resource: 'contact',
		operation: 'create',
		name: 'Harness Person',
		type: 'person',
		additionalFields: { email: 'h@example.com' },
	});
	expect(created.error).toBeUndefined();
	expect(created.json[0]).toMatchObject({ name: 'Harness Person', email: 'h@example.com' });
	expect(ctx.sb.store.tenant(1).contacts.get(created.json[0].id as number)).toBeDefined();
});
