/**
 * Paystubs — GET /v1/people-pay-run/paystubs/employee/:employeeId.
 * A processed payrun has one paystub per payroll. searchString
 * "MM/DD/YYYY-MM/DD/YYYY" keeps paystubs whose work period lies within the
 * range; other text matches pay period, pay date, work period and names.
 */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
import { json, notFound, type Ctx, type Reply } from '../../http';
import { slice, textMatch, type Doc, type Tenant } from '../../state';
import { fieldError } from '../gateway';
import { pageOf, parseMdy, RANGE, sortDocs } from './common';

export function paystubFor(env: Env, tenant: Tenant, p: Doc, pr: Doc, u: Doc | undefined): Doc {
	const id = env.store.nextOid();
	return {
		_id: id,
		payrollId: pr._id,
		payrunId: p._id,
		employeeId: pr.userId,
		iamUserId: pr.iamUserId,
		firstName: pr.firstName,
		lastName: pr.lastName,
		daysOff: pr.daysOff,
		days: pr.daysWorked,
		compensationCurrency: pr.compensationCurrency,
		compensationPeriod: pr.compensationPeriod,
		basicPay: pr.basicPayrun,
		netPay: pr.netPay,
		basicPayrun: pr.basicPayrun,
		netPayrun: pr.netPayrun,
		basicPayrunYTD: pr.basicPayrunYTD,
		netPayrunYTD: pr.netPayrunYTD,
		deductions: pr.deductions,
		earnings: pr.earnings,
		netTaxes: pr.netTaxes,
		payPeriod: p.payPeriod,
		payDate: p.payDate,
		workPeriod: { ...(p.workPeriod as Doc) },
		components: pr.components,
		benefits: pr.benefits,
		compliance: pr.compliance,
		createdAt: p.processedAt,
		filepath: `paystubs/${tenant.id}/${String(p.year)}/${id}.pdf`,
		overtime: [],
		countryCode: u?.countryCode ?? '',
		paymentMethod: pr.paymentMethod,
	};
}

export function listPaystubs(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const employeeId = ctx.params.employeeId;
	const { page, size, sortField, dir } = pageOf(env, ctx);
	const search = ctx.query.str('searchString');
	const m = search ? RANGE.exec(search) : null;
	const range = m ? [parseMdy(m[1]), parseMdy(m[2])] : undefined;
	if (range && (range[0] === undefined || range[1] === undefined))
		throw fieldError('searchString', 'holds an invalid date');
	const mine = tenant.paystubs.values().filter((p) => p.employeeId === employeeId);
	if (!mine.length && !tenant.peopleUsers.has(employeeId)) throw notFound('Employee', employeeId);
	const matched = mine.filter((p) => {
		const wp = p.workPeriod as Doc;
		if (range) {
			const from = parseMdy(String(wp.from)) ?? 0;
			const to = parseMdy(String(wp.to)) ?? 0;
			return from >= range[0]! && to <= range[1]!;
		}
		return (
			!search ||
			[p.payPeriod, p.payDate, wp.from, wp.to, p.firstName, p.lastName].some((v) =>
				textMatch(v, search),
			)
		);
	});
	return json(200, { paystubs: slice(sortDocs(matched, sortField, dir), page, size).items });
}
