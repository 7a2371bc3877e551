/**
 * Pickers of the People node: users and payruns, through the transport and the
 * regional base URL (people and payroll endpoints are served there when set).
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { apiRequest } from './transport';

const PICKER_PAGE = 50;
/** Entries offered in a dropdown (multi-select pickers): the first pages; any other ID can be given by expression. */
const MAX_OPTIONS = 500;

const userLabel = (u: IDataObject) => {
	const name = String(u.name || [u.firstName, u.lastName].filter(Boolean).join(' ') || u.userId);
	return `${name}${u.emailId ? ` <${String(u.emailId)}>` : ''}${u.employeeId ? ` (${String(u.employeeId)})` : ''}`;
};

const payrunLabel = (p: IDataObject) => {
	const schedule = (p.paySchedule as IDataObject | undefined)?.name || p.payPeriod || 'Payrun';
	const wp = (p.workPeriod as IDataObject | undefined) ?? {};
	const state = [p.stage, p.jeStatus ? `journal ${String(p.jeStatus).toLowerCase()}` : ''].filter(Boolean).join(', ');
	return `${String(schedule)}: ${String(wp.from ?? '?')} – ${String(wp.to ?? '?')}${state ? ` (${state})` : ''}`;
};

const totalPage = (body: IDataObject | undefined) => Number((body?.filterConfig as IDataObject | undefined)?.totalPage ?? 0);

async function usersPage(ctx: ILoadOptionsFunctions, page: number, limit: number, search?: string): Promise<IDataObject | undefined> {
	return await apiRequest<IDataObject>(ctx, {
		method: 'GET',
		path: '/v1/people/users',
		regional: true,
		qs: { limit, currentPage: page, searchString: search || undefined, field: 'name', order: 'asc', ignTeamData: true, ignRoles: true },
	});
}

export async function searchPeopleUsers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1);
	const body = await usersPage(this, page, PICKER_PAGE, filter);
	const users = (body?.users as IDataObject[] | undefined) ?? [];
	const total = totalPage(body);
	return {
		results: users.map((u) => ({ name: userLabel(u), value: String(u.userId) })),
		paginationToken: (total ? page < total : users.length === PICKER_PAGE) ? String(page + 1) : undefined,
	};
}

export async function getPeopleUsers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const out: INodePropertyOptions[] = [];
	for (let page = 1; out.length < MAX_OPTIONS; page++) {
		const body = await usersPage(this, page, 100);
		const users = (body?.users as IDataObject[] | undefined) ?? [];
		for (const u of users) out.push({ name: userLabel(u), value: String(u.userId) });
		const total = totalPage(body);
		if (users.length === 0 || (total ? page >= total : users.length < 100)) break;
	}
	return out;
}

async function payrunsPage(ctx: ILoadOptionsFunctions, page: number, limit: number, search?: string): Promise<IDataObject | undefined> {
	return await apiRequest<IDataObject>(ctx, {
		method: 'GET',
		path: '/v1/people-pay-run/payruns',
		regional: true,
		qs: { limit, currentPage: page, searchString: search || undefined, sortField: 'createdAt', sortOrder: 'desc' },
	});
}

export async function searchPayruns(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1);
	const body = await payrunsPage(this, page, PICKER_PAGE, filter);
	const payruns = (body?.payruns as IDataObject[] | undefined) ?? [];
	const totalPages = Number((body?.filterResponse as IDataObject | undefined)?.totalPages ?? 0);
	return {
		results: payruns.map((p) => ({ name: payrunLabel(p), value: String(p._id) })),
		paginationToken: (totalPages ? page < totalPages : payruns.length === PICKER_PAGE) ? String(page + 1) : undefined,
	};
}

export async function getPayruns(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const out: INodePropertyOptions[] = [];
	for (let page = 1; out.length < MAX_OPTIONS; page++) {
		const body = await payrunsPage(this, page, 100);
		const payruns = (body?.payruns as IDataObject[] | undefined) ?? [];
		for (const p of payruns) out.push({ name: payrunLabel(p), value: String(p._id) });
		const totalPages = Number((body?.filterResponse as IDataObject | undefined)?.totalPages ?? 0);
		if (payruns.length === 0 || (totalPages ? page >= totalPages : payruns.length < 100)) break;
	}
	return out;
}
