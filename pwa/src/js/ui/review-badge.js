// The count on the bottom bar's Review item: the items waiting for this phone's judge (a head
// judge's whole list; a floor judge's own flagged penalties), said in the link's label too.
import { onReviewChange, reviewList, reviewShown } from "../review.js";
import { t } from "../i18n.js";

function show(count) {
  const link = document.querySelector("#nav [data-screen=review]");
  if (!link) return;
  const badge = link.querySelector(".badge");
  link.dataset.count = count == null ? "" : String(count);
  badge.hidden = !count;
  badge.textContent = count ? String(count) : "";
  link.setAttribute("aria-label", count ? t("Review: {count} waiting", { count }) : t("Review: nothing waiting"));
}

/** Count again now (never throws; the count stays as it was when the engine fails). */
export async function updateReviewBadge() {
  if (!reviewShown()) { show(null); return; }
  try {
    show((await reviewList()).waiting.length);
  } catch { /* the engine failed: the screen says why */ }
}

/** Keep the count current: after each sync and each record made on this phone. */
export function startReviewBadge() {
  onReviewChange(updateReviewBadge);
  updateReviewBadge();
}
