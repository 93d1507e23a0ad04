// The pieces every settings section shares: the form fetcher that toasts its answer, the save button and the switch.
import { useEffect, useRef, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/page";
import { useToast } from "~/components/toaster";
import { PROFILE_UPDATED_EVENT, type SettingsActionData } from "~/lib/settings-form";

/** Where every settings form posts: the settings layout route's action, whichever section is shown. */
export const SETTINGS_ACTION = "/settings";

/** Shows each answer of a settings form as a toast, and tells the nav bar when the profile changed. */
export function useSettingsFetcher(key: string) {
  const fetcher = useFetcher<SettingsActionData>({ key });
  const toast = useToast();
  const seen = useRef<SettingsActionData | undefined>(undefined);
  useEffect(() => {
    const result = fetcher.data;
    if (!result || seen.current === result || fetcher.state !== "idle") return;
    seen.current = result;
    if (result.intent !== "avatar" && result.intent !== "cover") {
      toast({ message: result.message, type: result.ok ? "success" : "error" });
    } else if (!result.ok) {
      toast({ message: result.message, type: "error" });
    }
    if (result.ok && result.profile) {
      window.dispatchEvent(new CustomEvent(PROFILE_UPDATED_EVENT, { detail: result.profile }));
    }
  }, [fetcher.data, fetcher.state, toast]);
  return fetcher;
}

export function SaveButton({ pending, children = "Save Changes" }: { pending: boolean; children?: ReactNode }) {
  return (
    <Button type="submit" disabled={pending}>
      {pending ? "Saving..." : children}
    </Button>
  );
}

export function Switch({
  name,
  label,
  hint,
  defaultChecked,
}: {
  name: string;
  label: string;
  hint: string;
  defaultChecked: boolean;
}) {
  return (
    <label className="flex items-start justify-between gap-4 py-3">
      <span>
        <span className="block text-sm font-medium text-gray-900">{label}</span>
        <span className="block text-sm text-gray-600">{hint}</span>
      </span>
      <input
        type="checkbox"
        role="switch"
        name={name}
        defaultChecked={defaultChecked}
        className="mt-1 h-5 w-5 shrink-0 accent-brand-600"
      />
    </label>
  );
}
