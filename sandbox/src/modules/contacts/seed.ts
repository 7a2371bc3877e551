/** Demo labels and contacts (seed data and the bulk generator for benchmarks). */
import type { Env } from '../../env';
import { COMPANIES, FIRST_NAMES, LAST_NAMES, pickOne, type SeedCtx } from '../../module';
import type { Tenant } from '../../state';
import { newContact } from './contacts';

export function generateContacts(
	env: Env,
	tenant: Tenant,
	count: number,
	rnd: () => number = Math.random,
): number {
	const owners = tenant.crmUsers.map((u) => u.id);
	const labels = tenant.labels.values().map((l) => l.id as number);
	for (let i = 0; i < count; i++) {
		const isOrg = rnd() < 0.25;
		const first = pickOne(rnd, FIRST_NAMES);
		const last = pickOne(rnd, LAST_NAMES);
		const company = pickOne(rnd, COMPANIES);
		const n = tenant.contacts.size + 1;
		const name = isOrg ? `${company} ${n}` : `${first} ${last}`;
		const slug = name
			.toLowerCase()
			.normalize('NFKD')
			.replace(/[^a-z0-9]+/g, '.');
		newContact(env, tenant, owners[0], {
			name,
			type: isOrg ? 'organization' : 'person',
			email: rnd() < 0.9 ? `${slug}.${n}@${isOrg ? 'corp' : 'mail'}.example` : null,
			country_code: '+1',
			phone: `555${String(Math.floor(rnd() * 1e7)).padStart(7, '0')}`,
			address: `${Math.floor(rnd() * 900) + 100} Market Street, Springfield`,
			label_id: labels.length && rnd() < 0.7 ? pickOne(rnd, labels) : null,
			owner_id: pickOne(rnd, owners),
			visibility_type: pickOne(rnd, ['public', 'private', 'team']),
			custom_field: [
				{
					code: 'cf_source',
					label: 'Lead source',
					module: 'contact',
					shortName: 'lead_source',
					value: pickOne(rnd, ['web', 'referral', 'event']),
				},
				{
					code: 'cf_tier',
					label: 'Tier',
					module: 'contact',
					shortName: 'tier',
					value: pickOne(rnd, ['gold', 'silver', 'bronze']),
				},
			],
		});
	}
	return count;
}

/** Three labels, `rows` contacts, and persons linked to organizations so both types carry relations. */
export function seedContacts(env: Env, tenant: Tenant, s: SeedCtx): void {
	const owner = tenant.crmUsers[0].id;
	for (const [name, color, icon] of [
		['Hot lead', '#e53935', 'flame'],
		['Customer', '#43a047', 'star'],
		['Partner', '#1e88e5', 'handshake'],
	]) {
		const id = env.store.nextInt('label');
		tenant.labels.set(id, {
			id,
			name: s.index === 0 ? name : `${name} (Globex)`,
			color,
			icon,
			owner_id: owner,
			tenant_id: tenant.id,
		});
	}
	generateContacts(env, tenant, s.rows, s.rnd);
	const orgs = tenant.contacts.values().filter((c) => c.type === 'organization');
	const persons = tenant.contacts.values().filter((c) => c.type === 'person');
	persons.forEach((p, i) => {
		const org = orgs[i % Math.max(orgs.length, 1)];
		if (!org || i % 2) return;
		p.organization_id = org.id;
		p.organization_name = org.name;
		org.person_ids = [...((org.person_ids as number[] | null) ?? []), p.id as number];
		org.person_names = [...((org.person_names as string[] | null) ?? []), p.name as string];
	});
	tenant.contacts.touch();
}
