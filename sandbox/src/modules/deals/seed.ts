/** Demo pipelines and deals (seed data and the bulk generator for benchmarks). */
import type { Env } from '../../env';
import { pickOne, type SeedCtx } from '../../module';
import { nowIso, type Doc, type Tenant } from '../../state';
import { createDeal } from './deals';
import { addPipeline } from './pipelines';
import { makeStage } from './stages';

export function generateDeals(
	env: Env,
	tenant: Tenant,
	count: number,
	rnd: () => number = Math.random,
): number {
	const contacts = tenant.contacts.values();
	const persons = contacts.filter((c) => c.type === 'person');
	const orgs = contacts.filter((c) => c.type === 'organization');
	const pipelines = tenant.pipelines.values();
	for (let i = 0; i < count; i++) {
		const p = pickOne(rnd, pipelines);
		const stages = (p.stages as Doc[]).filter((s) => s.won_lost_status === 'open');
		const person = persons.length ? pickOne(rnd, persons) : undefined;
		const org = orgs.length ? pickOne(rnd, orgs) : undefined;
		const n = tenant.deals.size + 1;
		createDeal(env, tenant, tenant.crmUsers[0].id, {
			name: `${org ? String(org.name) : 'Direct'} deal #${n}`,
			amount: Math.round(rnd() * 500) * 100,
			currency_code: pickOne(rnd, ['USD', 'EUR', 'GBP']),
			closing_date: new Date(Date.UTC(2026, Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 27)))
				.toISOString()
				.slice(0, 10),
			contact_id: person?.id ?? null,
			organization_id: org?.id ?? null,
			pipeline_id: p.id,
			stage_id: pickOne(rnd, stages).id,
			owner_id: pickOne(rnd, tenant.crmUsers).id,
			email: person?.email ?? null,
			custom_field: [
				{
					code: 'cf_channel',
					label: 'Channel',
					module: 'deal',
					shortName: 'channel',
					value: pickOne(rnd, ['inbound', 'outbound', 'partner']),
				},
			],
		});
	}
	return count;
}

/** Two pipelines, `rows` deals, and a few closed ones so show_closed_deals has something to show. */
export function seedDeals(env: Env, tenant: Tenant, s: SeedCtx): void {
	const now = nowIso();
	const mk = (name: string, stages: [string, number][]) =>
		addPipeline(
			env,
			tenant,
			name,
			tenant.crmUsers[0].id,
			stages.map(([n, prob], i) =>
				makeStage(
					env,
					{
						name: n,
						deal_probability: prob,
						rotting_days: 14,
						help_text: `Deals in ${n.toLowerCase()}`,
					},
					i + 1,
				),
			),
			now,
		);
	mk(s.index === 0 ? 'Sales pipeline' : 'Globex sales', [
		['Lead', 10],
		['Qualified', 30],
		['Proposal', 60],
		['Negotiation', 80],
	]);
	mk('Partnerships', [
		['Intro', 20],
		['Pilot', 50],
	]);
	generateDeals(env, tenant, s.rows, s.rnd);
	// A few closed deals.
	tenant.deals
		.values()
		.slice(0, 4)
		.forEach((d, i) => {
			d.status = i % 2 ? 2 : 1;
			d.reason = i % 2 ? 'Chose a competitor' : null;
		});
	tenant.deals.touch();
}
