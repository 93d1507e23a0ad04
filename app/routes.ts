import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

// One module per page of the product (docs/product.md), plus account and support pages.
export default [
  // A pathless layout whose error boundary catches every page's errors below the root (see its module).
  layout("routes/page-shell.tsx", [
    index("routes/home.tsx"),
    route("shop", "routes/shop.tsx"),
    route("product/:id", "routes/product.tsx"),
    route("buy-now/:id", "routes/buy-now.tsx"),
    route("guess-win", "routes/guess-win.tsx"),
    route("profile/:id", "routes/profile.tsx"),
    route("profile/:id/shop", "routes/profile-shop.tsx"),
    route("tribe/join", "routes/tribe-join.tsx"),
    route("group-buy-detail/:id", "routes/group-buy-detail.tsx"),
    route("group-buy-product-selection/:id", "routes/group-buy-product-selection.tsx"),
    route("explore", "routes/explore.tsx"),
    route("winner-selection", "routes/winner-selection.tsx"),
    route("winner-selection/:poolId", "routes/draw-verification.tsx"),
    route("winner-selection/:poolId/entries.txt", "routes/draw-entries.tsx"),
    route("official-rules", "routes/official-rules.tsx"),
    route("shipping-tracking", "routes/shipping-tracking.tsx"),
    route("terms", "routes/terms.tsx"),
    route("privacy", "routes/privacy.tsx"),

    // Accounts
    route("signup", "routes/signup.tsx"),
    route("signin", "routes/signin.tsx"),
    route("signin/link", "routes/signin-link.tsx"),
    route("signout", "routes/signout.tsx"),
    route("congratulations", "routes/congratulations.tsx"),
    route("forgot-password", "routes/forgot-password.tsx"),
    route("reset-password", "routes/reset-password.tsx"),
    route("confirm-email", "routes/confirm-email.tsx"),
    route("dev/outbox", "routes/dev-outbox.tsx"),

    // Payments
    route("cart", "routes/cart.tsx"),
    route("payment", "routes/payment.tsx"),
    route("payment/success", "routes/payment-success.tsx"),
    route("payment/cancel", "routes/payment-cancel.tsx"),

    // Buyer
    route("my-orders", "routes/my-orders.tsx"),
    route("order/:orderNumber", "routes/order.tsx"),
    route("voucher/:code", "routes/voucher.tsx"),
    route("chat", "routes/chat-index.tsx"),
    route("chat/:id", "routes/chat.tsx"),
    route("notifications", "routes/notifications.tsx"),
    route("unsubscribe", "routes/unsubscribe.tsx"),

    // Host tools
    route("dashboard", "routes/dashboard.tsx"),
    // Settings: one layout (the page, its tabs and the action every section's forms post to) and a route per section.
    route("settings", "routes/settings/layout.tsx", [
      index("routes/settings/index.tsx"),
      route("shipping", "routes/settings/shipping.tsx"),
      route("notifications", "routes/settings/notifications.tsx"),
      route("privacy", "routes/settings/privacy.tsx"),
      route("account", "routes/settings/account.tsx"),
    ]),
    route("settings/export", "routes/settings-export.tsx"),
    route("settings/confirm-email", "routes/settings-confirm-email.tsx"),
    route("settings/claim-orders", "routes/settings-claim-orders.tsx"),
    route("prize-pool-settings", "routes/prize-pool-settings.tsx"),
    route("prize-pool-details", "routes/prize-pool-details.tsx"),
    route("prize-pool", "routes/prize-pool.tsx"),
    route("prize-pool-management", "routes/prize-pool-management.tsx"),
    route("tribe", "routes/tribe.tsx"),
    route("revenue", "routes/revenue.tsx"),
    route("revenue/export.csv", "routes/revenue-export.tsx"),
    route("revenue-management", "routes/revenue-management.tsx"),
    route("payouts", "routes/payouts.tsx"),
    route("payouts/local-onboarding/:accountId", "routes/payouts-local-onboarding.tsx"),
    route("transaction/:id", "routes/transaction.tsx"),
    route("ads-revenue", "routes/ads-revenue.tsx"),
    route("shop-management", "routes/shop-management.tsx"),
    route("add-product", "routes/add-product.tsx"),
    route("edit-product/:id", "routes/edit-product.tsx"),
    route("delete-product/:id", "routes/delete-product.tsx"),
    route("view-product/:id", "routes/view-product.tsx"),
    route("guess-win-management", "routes/guess-win-management.tsx"),
    route("create-guess-win", "routes/create-guess-win.tsx"),
    route("view-game/:id", "routes/view-game.tsx"),
    route("edit-game/:id", "routes/edit-game.tsx"),
    route("group-buy-management", "routes/group-buy-management.tsx"),
    route("orders", "routes/orders.tsx"),
    route("voucher-management", "routes/voucher-management.tsx"),
    route("orders/export.csv", "routes/orders-export.tsx"),
    route("voucher-scanner", "routes/voucher-scanner.tsx"),

    // Platform owner
    route("admin", "routes/admin.tsx"),

    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
