/** The sales module's users (integer ids): owners, assignees, creators. */
import { badRequest } from '../http';
import type { Module } from '../module';
import { FIRST_NAMES, LAST_NAMES } from '../module';
import type { Doc, Tenant } from '../state';

export const crmUsers: Module = {
	name: 'crm-users',
	seed(env, tenant, s) {
		const domain = s.index === 0 ? 'acme.example' : 'globex.example';
		// The OAuth demo user of this tenant has id tenant.id (1 or 2); the others come from the sequence.
		const ids = [
			tenant.id,
			...[0, 1, 2, 3].map(() => 100 + env.store.nextInt('crmUser') * 2 + s.index),
		];
		tenant.crmUsers = ids.map((id, i) => {
			const first = i === 0 ? 'Demo' : FIRST_NAMES[(i * 3 + s.index) % FIRST_NAMES.length];
			const last =
				i === 0
					? s.index === 0
						? 'Admin'
						: 'Owner'
					: LAST_NAMES[(i * 5 + s.index) % LAST_NAMES.length];
			return {
				id,
				first_name: first,
				last_name: last,
				email:
					i === 0
						? s.index === 0
							? 'demo@acme.example'
							: 'demo2@globex.example'
						: `${first.toLowerCase()}.${i}@${domain}`,
				contact: `+1555000${String(id).padStart(4, '0')}`,
				role: i === 0 ? 'admin' : 'sales',
				status: 'active',
				country_code: '+1',
				profile_url: '',
			};
		});
	},
	// The spec documents no endpoint for sales users; they appear embedded in other resources.
	paths: {},
};

export function userShort(tenant: Tenant, id: unknown): Doc | null {
	const u = tenant.crmUsers.find((x) => x.id === id);
	return u
		? {
				id: u.id,
				first_name: u.first_name,
				last_name: u.last_name,
				email: u.email,
				contact: u.contact,
				role: u.role,
				status: u.status,
			}
		: null;
}

export function checkOwner(tenant: Tenant, id: unknown, field = 'owner_id'): void {
	if (id !== undefined && id !== null && !tenant.crmUsers.some((u) => u.id === id)) {
		throw badRequest(`${field} ${String(id)} is not a user of this tenant`, [
			{ field, error: 'unknown user' },
		]);
	}
}
