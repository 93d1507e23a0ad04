import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [index("routes/home.tsx"), route("d1", "routes/d1.tsx")] satisfies RouteConfig;
