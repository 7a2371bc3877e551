/** Demo people users: one team per department, approvers, beneficiaries and custom fields. */
import type { Env } from '../../env';
import { FIRST_NAMES, LAST_NAMES, pickOne } from '../../module';
import type { Doc, Tenant } from '../../state';
import { approverOf, memberOf } from './approvers';
import { createUser } from './users';

const DESIGNATIONS = [
	'Software Engineer',
	'Senior Software Engineer',
	'Product Manager',
	'Accountant',
	'HR Manager',
	'Operations Analyst',
	'Designer',
];
const DEPARTMENTS = ['Engineering', 'Finance', 'Operations', 'People'];
const US_CITIES: [string, string, string, string][] = [
	['Springfield', 'IL', '62701', 'Sangamon'],
	['Austin', 'TX', '73301', 'Travis'],
	['Denver', 'CO', '80202', 'Denver'],
	['Portland', 'OR', '97201', 'Multnomah'],
	['Madison', 'WI', '53703', 'Dane'],
];
const IN_CITIES: [string, string, string, string][] = [
	['Bengaluru', 'Karnataka', '560001', 'Bengaluru Urban'],
	['Pune', 'Maharashtra', '411001', 'Pune'],
	['Chennai', 'Tamil Nadu', '600001', 'Chennai'],
];
const slug = (s: string) =>
	s
		.toLowerCase()
		.normalize('NFKD')
		.replace(/[^a-z0-9]+/g, '');
const isoDay = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString();
const digits = (rnd: () => number, n: number) =>
	Array.from({ length: n }, () => Math.floor(rnd() * 10)).join('');

export function seedUsers(
	env: Env,
	tenant: Tenant,
	rnd: () => number,
	rows: number,
	index: number,
): Doc[] {
	const users: Doc[] = [];
	for (let i = 0; i < rows; i++) users.push(seedUser(env, tenant, rnd, i, index));
	linkTeams(users);
	tenant.peopleUsers.touch();
	return users;
}

/** Creates one user from its demo input (as an API request would), then sets what only the server sets. */
function seedUser(env: Env, tenant: Tenant, rnd: () => number, i: number, index: number): Doc {
	const { input, joined } = userSeedInput(rnd, i, index);
	const u = createUser(env, tenant, input);
	u.username = `${slug(input.firstName as string)}.${i + 1}`;
	u.createdAt = new Date(Date.parse(joined) - 14 * 86400000 + i * 1000).toISOString();
	u.customFieldData = [
		{
			id: env.store.nextOid(),
			customFieldId: 'cf-tshirt-size',
			value: [(u.customFields as Doc).tShirtSize],
			userId: u.userId,
			tenantId: u.tenantId,
			iamUserId: u.iamUserId,
			module: 'people',
		},
	];
	const hasBene = i % 3 !== 0;
	u.beneficiaryId = hasBene ? `BENE-${digits(rnd, 8)}` : '';
	u.beneficiaryStatus = hasBene ? 'ACTIVE' : '';
	return u;
}

function userSeedInput(
	rnd: () => number,
	i: number,
	index: number,
): { input: Doc; joined: string } {
	const us = index === 0;
	const domain = us ? 'acme.example' : 'globex.example';
	const first = FIRST_NAMES[(i * 7 + index * 3) % FIRST_NAMES.length];
	const last = LAST_NAMES[(i * 11 + index * 5) % LAST_NAMES.length];
	const contractor = i % 10 === 9;
	const joinYear = 2015 + Math.floor(rnd() * 9);
	const joined = isoDay(joinYear, Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 28));
	const incomplete = i % 8 === 7;
	const [city, state, zip, county] = pickOne(rnd, us ? US_CITIES : IN_CITIES);
	const yearly = us
		? 55000 + Math.floor(rnd() * 125) * 1000
		: 600000 + Math.floor(rnd() * 300) * 10000;
	const compensation = contractor
		? us
			? 45 + Math.floor(rnd() * 75)
			: 900 + Math.floor(rnd() * 1500)
		: yearly;
	const period = contractor ? 'hourly' : 'yearly';
	const method = contractor
		? 'check'
		: rnd() < 0.85
			? 'directDeposit'
			: pickOne(rnd, ['check', 'cash']);
	const input: Doc = {
		firstName: first,
		lastName: last,
		title: pickOne(rnd, ['Mx', 'Ms', 'Mr', 'Dr']),
		designation: i === 0 ? 'HR Manager' : pickOne(rnd, DESIGNATIONS),
		department: i === 0 ? 'People' : DEPARTMENTS[i % DEPARTMENTS.length],
		emailId: `${slug(first)}.${slug(last)}.${i + 1}@${domain}`,
		contact: us ? `+1555${digits(rnd, 7)}` : `+9198${digits(rnd, 8)}`,
		gender: pickOne(rnd, ['female', 'male', 'nonBinary']),
		nationality: us ? 'US' : 'IN',
		employeeId: `EMP-${String(i + 1).padStart(4, '0')}`,
		employeeType: contractor ? 'contractor' : 'fullTime',
		contractorType: contractor ? 'individual' : '',
		type: contractor ? 'CONTRACTOR' : 'EMPLOYEE',
		appName: 'people',
		countryCode: us ? 'US' : 'IN',
		tenantCountryCode: us ? 'US' : 'IN',
		tenantCurrencyCode: us ? 'USD' : 'INR',
		compensationCurrency: us ? 'USD' : 'INR',
		dateOfJoining: joined,
		dateOfConfirmation: new Date(Date.parse(joined) + 90 * 86400000).toISOString(),
		dateOfBirth: isoDay(
			1965 + Math.floor(rnd() * 35),
			Math.floor(rnd() * 12),
			1 + Math.floor(rnd() * 28),
		),
		maritalStatus: pickOne(rnd, ['single', 'married']),
		passportNumber: us ? `X${digits(rnd, 8)}` : `P${digits(rnd, 7)}`,
		passportCountry: us ? 'US' : 'IN',
		socialSecurityNumber: us ? `${digits(rnd, 3)}-${digits(rnd, 2)}-${digits(rnd, 4)}` : '',
		address: {
			addressLine1: `${100 + Math.floor(rnd() * 900)} ${pickOne(rnd, ['Market', 'Oak', 'Main', 'Lake'])} Street`,
			addressLine2: rnd() < 0.3 ? `Apt ${1 + Math.floor(rnd() * 40)}` : '',
			zipCode: zip,
			city,
			state,
			country: us ? 'US' : 'IN',
			suburb: '',
			county,
		},
		paymentDetails: us
			? {
					bank: pickOne(rnd, ['First National Bank', 'Lakeside Credit Union', 'Pioneer Savings']),
					bankId: `bank-${digits(rnd, 4)}`,
					paymentMethod: method,
					accountType: pickOne(rnd, ['checking', 'savings']),
					routingNumber: digits(rnd, 9),
					accountNumber: incomplete ? '' : digits(rnd, 10),
					branchCode: '',
					branchName: '',
					ifsc: '',
					upi: '',
					transitNumber: '',
					institutionNumber: '',
				}
			: {
					bank: pickOne(rnd, ['HDFC Bank', 'ICICI Bank', 'State Bank of India']),
					bankId: `bank-${digits(rnd, 4)}`,
					paymentMethod: method,
					accountType: 'savings',
					routingNumber: '',
					accountNumber: incomplete ? '' : digits(rnd, 12),
					branchCode: digits(rnd, 4),
					branchName: pickOne(rnd, ['MG Road', 'Koramangala', 'Baner']),
					ifsc: `HDFC000${digits(rnd, 4)}`,
					upi: `${slug(first)}${i + 1}@okbank`,
					transitNumber: '',
					institutionNumber: '',
				},
		compensation,
		compensationPeriod: period,
		ctc: contractor ? compensation * 2080 : Math.round(yearly * 1.12),
		isEffectiveSalary: !contractor,
		effectiveCompensations: contractor
			? []
			: [
					{
						effectiveDate: joined,
						compensation: Math.round(yearly * 0.9),
						period,
						isVisible: true,
						basicCompensation: Math.round(yearly * 0.45),
					},
					{
						effectiveDate: isoDay(joinYear + 1, 0, 1),
						compensation: yearly,
						period,
						isVisible: true,
						basicCompensation: Math.round(yearly * 0.5),
					},
				],
		roles: [
			{
				roleId: 'role-employee',
				name: 'Employee',
				appName: 'people',
				policies: ['people:self:read', 'people:self:update'],
			},
			...(i < 2
				? [
						{
							roleId: 'role-admin',
							name: 'Admin',
							appName: 'people',
							policies: ['people:*', 'payroll:*'],
						},
					]
				: []),
		],
		hasCompliance: true,
		compliance: us
			? {
					'@type': 'type.googleapis.com/people.v1.USCompliance',
					filingStatus: pickOne(rnd, ['single', 'marriedFilingJointly']),
					federalAllowances: Math.floor(rnd() * 3),
					stateCode: state,
				}
			: {
					'@type': 'type.googleapis.com/people.v1.INCompliance',
					pan: `ABCDE${digits(rnd, 4)}F`,
					uan: digits(rnd, 12),
					pfApplicable: true,
					taxRegime: pickOne(rnd, ['old', 'new']),
				},
		isImported: i % 5 === 0,
		isInCompleteProfile: incomplete,
		inCompleteFields: incomplete ? ['paymentDetails.accountNumber'] : [],
		makePayroll: true,
		directDepositConsent: method === 'directDeposit',
		customFields: { tShirtSize: pickOne(rnd, ['S', 'M', 'L', 'XL']) },
		profileStages: {
			employeeDetails: true,
			paymentDetails: !incomplete,
			witholdingSetup: true,
			filingAuthorization: !incomplete,
		},
		locationValue: city,
	};
	return { input, joined };
}

/** Teams per department, and approvers: the first user of the department (or the first user). */
function linkTeams(users: Doc[]): void {
	for (const dept of new Set(users.map((u) => u.department as string))) {
		const members = users.filter((u) => u.department === dept);
		const team = {
			teamId: `team-${slug(dept)}`,
			name: `${dept} team`,
			createdAt: isoDay(2015, 0, 5),
			status: 'active',
			type: 'department',
		};
		for (const u of members) {
			u.teams = [
				{ ...team, members: members.map((m, k) => memberOf(m, k === 0 ? ['lead'] : ['member'])) },
			];
			const lead = members[0] !== u ? members[0] : users[0] !== u ? users[0] : undefined;
			const approvers = lead ? [approverOf(lead)] : [];
			if (users[1] && users[1] !== u && users[1] !== lead && users.indexOf(u) % 4 === 0)
				approvers.push(approverOf(users[1]));
			u.approvers = approvers;
		}
	}
}
