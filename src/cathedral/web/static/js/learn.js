// @ts-check
// The courses page: one course per game, each lesson with the steps done in this browser (kept
// in localStorage) and a link to carry on.

import "./account.js";
import { $, h } from "./dom.js";
import { errorText, get } from "./net.js";
import { stepsDone } from "./study.js";
import { GAME_TITLES } from "./table.js";

/** @typedef {import("./study.js").Courses} Courses */

/**
 * A lesson's line: its number, title, progress and a link.
 * @param {string} game
 * @param {{id: string, title: string, steps: number}} lesson
 * @param {number} number
 */
function lessonItem(game, lesson, number) {
  const done = stepsDone(game, lesson.id).length;
  const complete = done >= lesson.steps;
  const state = complete ? "done" : done ? "started" : "new";
  const words = complete ? "done" : done ? `${done} of ${lesson.steps} steps` : `${lesson.steps} step${lesson.steps === 1 ? "" : "s"}`;
  return h(
    "li",
    { class: `lesson-item ${state}`, "data-lesson": lesson.id },
    h("span", { class: "lesson-mark", "aria-hidden": "true" }, complete ? "✓" : String(number)),
    h(
      "a",
      { href: `/learn/${encodeURIComponent(game)}/${encodeURIComponent(lesson.id)}`, "aria-label": `Lesson ${number}: ${lesson.title} (${words})` },
      lesson.title,
    ),
    h("span", { class: "lesson-progress muted" }, words),
    h("span", { class: "bar", "aria-hidden": "true" }, h("span", { class: "fill", style: { width: `${Math.round((100 * Math.min(done, lesson.steps)) / Math.max(1, lesson.steps))}%` } })),
  );
}

async function start() {
  const box = $("courses");
  /** @type {Courses} */
  let found;
  try {
    found = await get("/api/lessons");
  } catch (exc) {
    box.replaceChildren(h("p", { class: "hero-note", role: "alert" }, `The lessons cannot be loaded: ${errorText(exc)}`));
    box.removeAttribute("aria-busy");
    return;
  }
  const order = ["classic", "allmer", "red"];
  const courses = [...found.courses].sort((a, b) => order.indexOf(a.game) - order.indexOf(b.game));
  box.replaceChildren(
    ...courses.map((course) => {
      const lessons = course.lessons;
      const next = lessons.find((l) => stepsDone(course.game, l.id).length < l.steps);
      const done = lessons.filter((l) => stepsDone(course.game, l.id).length >= l.steps).length;
      return h(
        "section",
        { class: "panel course", "data-game": course.game, "aria-labelledby": `course-${course.game}` },
        h("h2", { id: `course-${course.game}` }, course.title || GAME_TITLES[course.game] || course.game),
        h("p", { class: "muted small" }, `${GAME_TITLES[course.game] || course.game} · ${done} of ${lessons.length} lessons done`),
        h("ol", { class: "lesson-list" }, lessons.map((lesson, i) => lessonItem(course.game, lesson, i + 1))),
        h(
          "p",
          { class: "row mt" },
          h(
            "a",
            { class: "btn primary", href: `/learn/${encodeURIComponent(course.game)}/${encodeURIComponent((next || lessons[0]).id)}` },
            !next ? "Go over it again" : done || stepsDone(course.game, next.id).length ? "Carry on" : "Start the course",
          ),
        ),
      );
    }),
  );
  box.removeAttribute("aria-busy");
}

start();
