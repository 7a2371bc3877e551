/** Every module of the simulated platform, in seeding order (later ones use earlier data). */
import type { Module } from '../module';
import { activities } from './activities';
import { campaigns } from './campaigns';
import { contacts } from './contacts';
import { crmUsers } from './crm-users';
import { deals } from './deals';
import { payroll } from './payroll';
import { people } from './people';
import { tables } from './tables';

export const MODULES: Module[] = [
	crmUsers,
	contacts,
	deals,
	activities,
	tables,
	campaigns,
	people,
	payroll,
];
