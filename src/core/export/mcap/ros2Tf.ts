// Transforms as ROS 2 messages (tf2_msgs/msg/TFMessage, CDR-encoded), the form Rerun turns into Transform3D
// (it draws no transforms from JSON-encoded channels). The schema text is the concatenated .msg definitions, as
// ROS 2 bags store them; @foxglove/rosmsg parses it and @foxglove/rosmsg2-serialization writes the CDR bytes.
import { parse } from '@foxglove/rosmsg';
import { MessageWriter } from '@foxglove/rosmsg2-serialization';

export const TF_SCHEMA_NAME = 'tf2_msgs/msg/TFMessage';

const SEP = '================================================================================';
export const TF_SCHEMA_TEXT = [
  'geometry_msgs/TransformStamped[] transforms',
  SEP,
  'MSG: geometry_msgs/TransformStamped',
  'std_msgs/Header header',
  'string child_frame_id',
  'Transform transform',
  SEP,
  'MSG: std_msgs/Header',
  'builtin_interfaces/Time stamp',
  'string frame_id',
  SEP,
  'MSG: builtin_interfaces/Time',
  'int32 sec',
  'uint32 nanosec',
  SEP,
  'MSG: geometry_msgs/Transform',
  'Vector3 translation',
  'Quaternion rotation',
  SEP,
  'MSG: geometry_msgs/Vector3',
  'float64 x',
  'float64 y',
  'float64 z',
  SEP,
  'MSG: geometry_msgs/Quaternion',
  'float64 x 0',
  'float64 y 0',
  'float64 z 0',
  'float64 w 1',
  '',
].join('\n');

export interface TfTransform {
  parent: string;
  child: string;
  stamp: { sec: number; nsec: number };
  /** x, y, z then quaternion (w, x, y, z): MuJoCo's layout. */
  pose: ArrayLike<number>;
}

let writer: MessageWriter | undefined;

export function encodeTfMessage(transforms: readonly TfTransform[]): Uint8Array {
  writer ??= new MessageWriter(parse(TF_SCHEMA_TEXT, { ros2: true }));
  return writer.writeMessage({
    transforms: transforms.map((t) => ({
      header: { stamp: { sec: t.stamp.sec, nanosec: t.stamp.nsec }, frame_id: t.parent },
      child_frame_id: t.child,
      transform: {
        translation: { x: t.pose[0], y: t.pose[1], z: t.pose[2] },
        rotation: { x: t.pose[4], y: t.pose[5], z: t.pose[6], w: t.pose[3] },
      },
    })),
  });
}
