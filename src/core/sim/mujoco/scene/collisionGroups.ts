// Collision bits. MuJoCo lets two geoms touch when (contype1 & conaffinity2) || (contype2 & conaffinity1).
//   world (table, floor)   hits arms and objects
//   free objects           hit the world, each other, fixtures and arms
//   fixtures (bins, shelf, drawers, buttons: mocap-placed) hit objects and arms, never the table or each other
//   arm k                  hits everything except its own links (no self-collision) -> arm-arm contacts count
// Visual geoms (markers, target areas) have both bits 0.

export interface CollisionBits {
  contype: number;
  conaffinity: number;
}

const WORLD_BIT = 1;
const OBJECT_BIT = 4;
const FIXTURE_BIT = 8;
const FIRST_ARM_BIT = 16;
export const MAX_ARMS = 3;

export const WORLD_COLLISION: CollisionBits = { contype: WORLD_BIT, conaffinity: 0 };
export const OBJECT_COLLISION: CollisionBits = { contype: OBJECT_BIT, conaffinity: WORLD_BIT | OBJECT_BIT | FIXTURE_BIT };
export const FIXTURE_COLLISION: CollisionBits = { contype: FIXTURE_BIT, conaffinity: 0 };
export const NO_COLLISION: CollisionBits = { contype: 0, conaffinity: 0 };
/** A part of a free object that touches objects, fixtures and arms but not the table or floor. */
export const NO_TABLE_COLLISION: CollisionBits = { contype: OBJECT_BIT, conaffinity: OBJECT_BIT | FIXTURE_BIT };

export function armCollision(arm: number, armCount: number): CollisionBits {
  if (arm < 0 || arm >= MAX_ARMS) throw new Error(`arm index ${arm} out of range: scenes hold 1-${MAX_ARMS} arms`);
  let others = 0;
  for (let k = 0; k < armCount; k++) if (k !== arm) others |= FIRST_ARM_BIT << k;
  return { contype: FIRST_ARM_BIT << arm, conaffinity: WORLD_BIT | OBJECT_BIT | FIXTURE_BIT | others };
}
