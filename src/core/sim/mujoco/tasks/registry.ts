// Every task the embedded tabletop simulator knows, keyed by id. Adding a task = one definition file plus
// one line here; test/unit/core/sim/mujoco/taskRegistry.test.ts checks ids, metadata and that each scene compiles.
import type { TaskInfo } from '../../simulator.js';
import { emptyContainerTask } from './singleArm/emptyContainer.js';
import { openDrawerTask } from './singleArm/openDrawer.js';
import { pickAndLiftTask } from './singleArm/pickAndLift.js';
import { pushButtonTask } from './singleArm/pushButton.js';
import { putBlockTask } from './singleArm/putBlock.js';
import { rubbishInBinTask } from './singleArm/rubbishInBin.js';
import { sortByColorTask } from './singleArm/sortByColor.js';
import { stackCupsTask } from './singleArm/stackCups.js';
import { acTasks } from './clearing/acScenes.js';
import { clearTableBinTask, clearTableShelfTask, clearTableSinkTask } from './clearing/clearingScenes.js';
import { handoverTask } from './multiArm/handover.js';
import { makeSandwichTask } from './multiArm/makeSandwich.js';
import { moveRopeTask } from './multiArm/moveRope.js';
import { sweepFloorTask } from './multiArm/sweepFloor.js';
import { arrangeCabinetTask } from './multiArm/arrangeCabinet.js';
import { packGroceryTask } from './multiArm/packGrocery.js';
import { sortCubesTask } from './multiArm/sortCubes.js';
import { basketballInHoopTask } from './rlbench/basketballInHoop.js';
import { closeJarTask } from './rlbench/closeJar.js';
import { insertInPegTask } from './rlbench/insertInPeg.js';
import { meatOffGrillTask } from './rlbench/meatOffGrill.js';
import { openBottleTask } from './rlbench/openBottle.js';
import { stackBlocksTask } from './stackBlocks.js';
import { drawShapeTask } from './trajectory/drawShape.js';
import { knockOverCanTask } from './trajectory/knockOverCan.js';
import { pushCanTask } from './trajectory/pushCan.js';
import { shakeBottleTask } from './trajectory/shakeBottle.js';
import { wipePlateTask } from './trajectory/wipePlate.js';
import { alignBottleTask } from './trajectory/alignBottle.js';
import { appleInBowlTask } from './trajectory/appleInBowl.js';
import { drawStarTask } from './trajectory/drawStar.js';
import { graspBowlRimTask } from './trajectory/graspBowlRim.js';
import { knockOverLeftBottleTask } from './trajectory/knockOverLeftBottle.js';
import { moveLonelyObjectTask } from './trajectory/moveLonelyObject.js';
import { movePanLeftTask } from './trajectory/movePanLeft.js';
import { openBottleCapTask } from './trajectory/openBottleCap.js';
import { pickChipBagTask } from './trajectory/pickChipBag.js';
import { pickMiddleFruitTask } from './trajectory/pickMiddleFruit.js';
import { toasterSlotTask } from './trajectory/toasterSlot.js';
import { drawCircleTask } from './trajectory/drawCircle.js';
import { pickRightmostCanTask } from './trajectory/pickRightmostCan.js';
import { dropBallIntoCupTask } from './trajectory/dropBallIntoCup.js';
import { moveBananaNearPearTask } from './trajectory/moveBananaNearPear.js';
import type { TaskDefinition } from './taskDefinition.js';

const DEFINITIONS: TaskDefinition[] = [
  stackBlocksTask(3),
  stackBlocksTask(2),
  stackBlocksTask(4),
  putBlockTask(),
  emptyContainerTask(),
  rubbishInBinTask(),
  openDrawerTask(),
  pushButtonTask(),
  pickAndLiftTask(),
  sortByColorTask(),
  stackCupsTask(),
  meatOffGrillTask(),
  closeJarTask(),
  insertInPegTask(),
  basketballInHoopTask(),
  openBottleTask(),
  drawShapeTask(),
  wipePlateTask(),
  shakeBottleTask(),
  pushCanTask(),
  knockOverCanTask(),
  // LM Trajectory Generators' recovered task list (issue 12).
  pickChipBagTask(),
  appleInBowlTask(),
  openBottleCapTask(),
  movePanLeftTask(),
  drawStarTask(),
  knockOverLeftBottleTask(),
  moveLonelyObjectTask(),
  pickMiddleFruitTask(),
  alignBottleTask(),
  graspBowlRimTask(),
  toasterSlotTask(),
  // The rest of LMTG's tasks whose wording the paper or its authors' repository give (issue 25).
  drawCircleTask(),
  pickRightmostCanTask(),
  dropBallIntoCupTask(),
  moveBananaNearPearTask(),
  clearTableBinTask(),
  clearTableSinkTask(),
  clearTableShelfTask(),
  ...acTasks(),
  sortCubesTask(),
  packGroceryTask(),
  makeSandwichTask(),
  moveRopeTask(),
  sweepFloorTask(),
  arrangeCabinetTask(),
  handoverTask(),
];

export const TASKS: ReadonlyMap<string, TaskDefinition> = new Map(DEFINITIONS.map((t) => [t.info.id, t]));

/** Canonical task ids in listing order. */
export const TASK_IDS: readonly string[] = DEFINITIONS.map((t) => t.info.id);

export function getTask(id: string): TaskDefinition {
  const t = TASKS.get(id);
  if (!t) throw new Error(`unknown task '${id}'; known tasks: ${TASK_IDS.join(', ')}`);
  return t;
}

/** Handler-free metadata, for listings and pickers. */
export function taskInfos(): TaskInfo[] {
  return DEFINITIONS.map((t) => ({ ...t.info }));
}

/** Metadata plus the robot APIs each task works with (for `waypoint tasks --arch`: an architecture's API). */
export function taskCatalog(): (TaskInfo & { defaultApi: string; apis: string[] })[] {
  return DEFINITIONS.map((t) => ({ ...t.info, defaultApi: t.defaultApi, apis: [...(t.apis ?? [t.defaultApi])] }));
}
