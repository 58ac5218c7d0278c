// The embedded household simulator (LLaMAR's world): see README.md.
export { createHouseholdSimulator, HouseholdSimulator, householdTasks, HOUSEHOLD_SIMULATOR_VERSION, parseTaskId, plansOf, HOUSEHOLD_API_ID, DEFAULT_AGENTS } from './householdSim.js';
export { FLOOR_PLANS, PLANS_BY_KIND } from './floorPlans.js';
export { TASKS, CATEGORY_LABELS, taskById } from './tasks.js';
