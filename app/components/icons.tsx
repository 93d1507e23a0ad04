// The app's small icons as inline SVG in the text's colour (currentColor), hidden from screen readers: the words
// next to them (or a visually hidden label) say what they mean. Never emoji: an emoji renders as an empty box where
// no emoji font is installed (docs/decisions/630-phone-and-keyboard.md).

import type { ReactNode } from "react";

type IconProps = { className?: string };

const BASE = "inline-block h-[1em] w-[1em] shrink-0 align-[-0.125em]";

function Svg({ className, children, filled }: IconProps & { children: ReactNode; filled?: boolean }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      fill={filled ? "currentColor" : "none"}
      stroke={filled ? "none" : "currentColor"}
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className ? `${BASE} ${className}` : BASE}
    >
      {children}
    </svg>
  );
}

const HEART =
  "M12 21s-7.5-4.6-9.6-9.1C.9 8.6 3 5 6.6 5c2.1 0 3.5 1.1 4.4 2.5h2C13.9 6.1 15.3 5 17.4 5 21 5 23.1 8.6 21.6 11.9 19.5 16.4 12 21 12 21Z";

/** A heart: an outline, filled when `filled` (a liked game). */
export function HeartIcon({ filled, className }: IconProps & { filled?: boolean }) {
  return (
    <Svg className={className} filled={filled}>
      <path d={HEART} />
    </Svg>
  );
}

/** A speech bubble (a comment count). */
export function CommentIcon({ className }: IconProps) {
  return (
    <Svg className={className}>
      <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20.5l1.4-4.7A8 8 0 1 1 21 12Z" />
    </Svg>
  );
}

/** An arrow leaving a box (share). */
export function ShareIcon({ className }: IconProps) {
  return (
    <Svg className={className}>
      <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </Svg>
  );
}

/** A tick (a verified host). */
export function CheckIcon({ className }: IconProps) {
  return (
    <Svg className={className}>
      <path d="M5 12.5l4.5 4.5L19 7.5" />
    </Svg>
  );
}

/** A filled star (a rating). */
export function StarIcon({ className }: IconProps) {
  return (
    <Svg className={className} filled>
      <path d="M12 2.5l2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.4l-5.9 3.1 1.2-6.5-4.8-4.6 6.6-.9L12 2.5Z" />
    </Svg>
  );
}

/** Party streamers (a new account's welcome). */
export function CelebrateIcon({ className }: IconProps) {
  return (
    <Svg className={className}>
      <path d="M4 20l4.5-12 7.5 7.5L4 20ZM13 3v2M19 9h2M17 5l1.5-1.5M14 8c1-1 3-1 4 0M16 11c1-.5 2.5-.5 3.5.5" />
    </Svg>
  );
}
