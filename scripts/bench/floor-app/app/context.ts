import { createContext } from "react-router";

/** The Worker's bindings, for the /d1 route's loader. */
export const envContext = createContext<{ DB: D1Database }>();
