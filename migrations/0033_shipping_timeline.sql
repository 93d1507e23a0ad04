-- Issue 30 (docs/decisions/580-delivery-is-stamped-by-delivered.md): when a host first marked an order Shipped, and
-- whether a buyer's return request is a return or a "not received" report. Delivery is stamped by Delivered only;
-- an order shipped but never marked delivered counts as delivered at Shipped + 30 days.
ALTER TABLE `orders` ADD `shipped_at` integer;
--> statement-breakpoint
ALTER TABLE `return_requests` ADD `kind` text DEFAULT 'return' NOT NULL;
--> statement-breakpoint
-- Orders shipped before this column: their first "shipped" history line, else (shipped, delivered or completed
-- with a tracking number but no such line) their last change.
UPDATE `orders` SET `shipped_at` = coalesce(
  (SELECT min(su.`created_at`) FROM `shipping_updates` su WHERE su.`order_id` = `orders`.`id` AND su.`status` = 'shipped'),
  `updated_at`
) WHERE `product_category` = 'physical' AND `tracking_number` IS NOT NULL AND `status` IN ('shipped', 'delivered', 'completed');
--> statement-breakpoint
-- Delivered history lines written before delivery was stamped on the order keep their time.
UPDATE `orders` SET `delivered_at` = (
  SELECT min(su.`created_at`) FROM `shipping_updates` su WHERE su.`order_id` = `orders`.`id` AND su.`status` = 'delivered'
) WHERE `delivered_at` IS NULL AND `product_category` = 'physical'
  AND EXISTS (SELECT 1 FROM `shipping_updates` su WHERE su.`order_id` = `orders`.`id` AND su.`status` = 'delivered');
