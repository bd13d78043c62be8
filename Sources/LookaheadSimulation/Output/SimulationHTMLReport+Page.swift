// The static parts of the HTML report: its stylesheet, the replay's markup
// and the script that animates the replay and checks its counts.

extension SimulationHTMLReport {
    static let style = """
        body { font: 14px/1.4 -apple-system, system-ui, sans-serif; margin: 24px; color: #1d1d1f; }
        h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; } h3 { font-size: 15px; }
        .note { color: #555; max-width: 760px; }
        table { border-collapse: collapse; margin-bottom: 8px; }
        th, td { padding: 3px 10px; text-align: right; border-bottom: 1px solid #e5e5e5; }
        th:first-child, td:first-child { text-align: left; }
        tr.bound td { font-style: italic; color: #555; }
        .finding { color: #a03; }
        .controls { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; margin: 8px 0; }
        .controls input[type=range] { flex: 1; min-width: 240px; }
        .sides { display: flex; gap: 24px; }
        .side { text-align: center; }
        .side canvas { border: 1px solid #999; background: #fff; }
        .counter { font-variant-numeric: tabular-nums; font-size: 16px; margin-top: 4px; }
        .chart svg { max-width: 100%; height: auto; }
        #totals, #check { font: 12px monospace; color: #555; }
        """

    static let replaySection = """
        <h2>Replay</h2>
        <div class="controls">
        <label>Scenario <select id="scenario"></select></label>
        <button id="play">Pause</button>
        <label>Speed <select id="speed"><option>0.25</option><option>0.5</option><option selected>1</option>\
        <option>2</option><option>4</option></select>×</label>
        <input type="range" id="scrubber" min="0" max="0" value="0">
        <span id="clock" class="counter">0.0 s</span>
        </div>
        <div class="sides">
        <div class="side"><select id="left"></select><br><canvas id="leftCanvas"></canvas>\
        <div class="counter">blank cell-frames: <span id="leftCount">0</span></div></div>
        <div class="side"><select id="right"></select><br><canvas id="rightCanvas"></canvas>\
        <div class="counter">blank cell-frames: <span id="rightCount">0</span></div></div>
        </div>
        <p class="note">Cells are white until their data lands. Open the page with <code>#end</code> for the last \
        frame, <code>#scenario=photos&amp;t=8</code> for a scenario at a time.</p>
        <pre id="totals"></pre>
        <div id="check"></div>

        """

    static let script = """
        "use strict";
        const data = JSON.parse(document.getElementById("data").textContent);
        const timelines = data.timelines || [];
        function prepare(t) {
          const frames = t.offsets.length;
          t.visibleAt = Array.from({ length: frames }, () => []);
          t.visibleRuns.forEach((runs, item) => runs.forEach(([first, last]) => {
            for (let f = first; f <= last; f++) t.visibleAt[f].push(item);
          }));
          t.strands.forEach(strand => {
            const cumulative = new Int32Array(frames + 1);
            for (let f = 0; f < frames; f++) {
              let blank = 0;
              for (const item of t.visibleAt[f]) {
                const ready = strand.readyFrames[item];
                if (ready < 0 || ready > f) blank++;
              }
              cumulative[f + 1] = cumulative[f] + blank;
            }
            strand.cumulative = cumulative;
          });
        }
        timelines.forEach(prepare);
        const totals = [];
        let mismatches = 0;
        timelines.forEach(t => t.strands.forEach(s => {
          const counted = s.cumulative[t.offsets.length];
          if (counted !== s.blankCellFrames) mismatches++;
          totals.push(t.scenario + "/" + s.name + " counted=" + counted + " simulated=" + s.blankCellFrames);
        }));
        document.getElementById("totals").textContent = totals.join("\\n");
        document.getElementById("check").textContent = timelines.length === 0 ? "no replay"
          : mismatches === 0 ? "ok" : "mismatch: " + mismatches;

        const $ = id => document.getElementById(id);
        const hash = new URLSearchParams(location.hash.slice(1));
        const startAtEnd = hash.has("end"), startSeconds = Number(hash.get("t"));
        let current = 0, frame = 0, playing = !startAtEnd && !hash.has("t"), last = null, speed = 1;
        function fill(select, names, wanted) {
          select.innerHTML = "";
          names.forEach((name, i) => select.add(new Option(name, i)));
          const index = names.indexOf(wanted);
          select.value = String(index >= 0 ? index : 0);
        }
        function choose(index) {
          current = index;
          const t = timelines[current];
          const names = t.strands.map(s => s.name);
          fill($("left"), names, $("left").selectedOptions[0]?.text || data.left);
          fill($("right"), names, $("right").selectedOptions[0]?.text || data.right);
          $("scrubber").max = String(t.offsets.length - 1);
          const scale = 420 / t.viewport[1];
          for (const id of ["leftCanvas", "rightCanvas"]) {
            $(id).width = Math.round(t.viewport[0] * scale);
            $(id).height = 420;
          }
          const lastFrame = t.offsets.length - 1;
          frame = startAtEnd ? lastFrame : Math.min(lastFrame, Math.max(0, Math.round((startSeconds || 0) * 1000 / t.frameMilliseconds)));
          draw();
        }
        // A swiped carousel's items move left by the row's offset at this frame.
        function rowShift(t, item) {
          const row = t.itemRows ? t.itemRows[item] : -1;
          if (row < 0) return 0;
          const changes = t.rowOffsets[row];
          let low = 0, high = changes.length - 1, shift = 0;
          while (low <= high) {
            const middle = (low + high) >> 1;
            if (changes[middle][0] <= frame) { shift = changes[middle][1]; low = middle + 1; } else { high = middle - 1; }
          }
          return shift;
        }
        function drawSide(canvas, strand, t) {
          const context = canvas.getContext("2d");
          const scale = canvas.height / t.viewport[1];
          const offset = t.offsets[frame];
          context.clearRect(0, 0, canvas.width, canvas.height);
          for (const item of t.visibleAt[frame]) {
            const [x0, y, w, h] = t.items[item];
            const x = x0 - rowShift(t, item);
            const ready = strand.readyFrames[item];
            const shown = ready >= 0 && ready <= frame;
            context.fillStyle = shown ? "hsl(" + (item * 47 % 360) + ", 55%, 72%)" : "#ffffff";
            context.fillRect(x * scale, (y - offset) * scale, w * scale, h * scale);
            context.strokeStyle = "#bbb";
            context.strokeRect(x * scale + 0.5, (y - offset) * scale + 0.5, w * scale - 1, h * scale - 1);
          }
        }
        function draw() {
          const t = timelines[current];
          const left = t.strands[Number($("left").value)], right = t.strands[Number($("right").value)];
          drawSide($("leftCanvas"), left, t);
          drawSide($("rightCanvas"), right, t);
          $("leftCount").textContent = left.cumulative[frame + 1];
          $("rightCount").textContent = right.cumulative[frame + 1];
          $("scrubber").value = String(frame);
          $("clock").textContent = (frame * t.frameMilliseconds / 1000).toFixed(1) + " s";
        }
        function tick(now) {
          if (playing && last !== null) {
            const t = timelines[current];
            const advance = Math.floor((now - last) * speed / t.frameMilliseconds);
            if (advance > 0) {
              frame = Math.min(t.offsets.length - 1, frame + advance);
              last = now;
              if (frame === t.offsets.length - 1) { playing = false; $("play").textContent = "Play"; }
              draw();
            }
          } else {
            last = now;
          }
          requestAnimationFrame(tick);
        }
        if (timelines.length > 0) {
          timelines.forEach((t, i) => $("scenario").add(new Option(t.scenario, i)));
          $("scenario").onchange = () => choose(Number($("scenario").value));
          $("left").onchange = draw;
          $("right").onchange = draw;
          $("speed").onchange = () => { speed = Number($("speed").value); };
          $("scrubber").oninput = () => { frame = Number($("scrubber").value); draw(); };
          $("play").textContent = playing ? "Pause" : "Play";
          $("play").onclick = () => {
            const t = timelines[current];
            if (!playing && frame === t.offsets.length - 1) frame = 0;
            playing = !playing;
            $("play").textContent = playing ? "Pause" : "Play";
          };
          const wanted = timelines.findIndex(t => t.scenario === hash.get("scenario"));
          $("scenario").value = String(Math.max(0, wanted));
          choose(Math.max(0, wanted));
          requestAnimationFrame(tick);
        }
        """
}
