-- Issue 31 item 4 (docs/decisions/620-one-currency-choice.md): the currency a fan chose to see prices in, remembered
-- on their profile. Null means "my country's currency" (the currency of user_profiles.country); otherwise a code of
-- the rate table. (user_profiles.currency is another thing: the currency the profile's own products are priced in.)
ALTER TABLE `user_profiles` ADD `display_currency` text;
