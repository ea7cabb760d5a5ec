"""The sensitivity tornado stays readable: no label overlaps another label, a bar or the plot."""

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg

from reports.charts import tornado_chart, tornado_figure

LONG = "move_any_out_of_one_region_of_the_board_number_of_caballeros_allowed"


def _scan(rows: int) -> dict:
    """A scan result with long names, long choice options and small effects (bars near zero,
    where labels written at the bars' ends used to pile up)."""
    rng = np.random.default_rng(3)
    points, ranking = [], []
    for i in range(rows):
        name = f"{LONG}_{i}" if i % 2 else f"p{i}"
        if i % 5 == 0:
            values = ["resources_discarded_at_the_end_of_the_round", "kept"]
        else:
            values = [0, 1, 9]
        for v in values:
            delta = float(rng.normal(0, 0.002 if i > 12 else 0.05))
            points.append({"parameter": name, "value": v, "playable": True, "delta": delta,
                           "low": delta - 0.04, "high": delta + 0.04, "detected": i < 3})
        ranking.append({"parameter": name, "detected": i < 3, "largest": {"value": values[0]}})
    return {"metric": {"scale": 100.0, "unit": "pts", "short": "balance index"},
            "ranking": ranking, "points": points, "options": {"games": 200},
            "title": "El Grande", "players": 5}


def _overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def test_labels_overlap_neither_each_other_nor_the_bars_nor_the_plot():
    fig = tornado_figure(_scan(25), 25)
    canvas = FigureCanvasAgg(fig)  # the renderer the PNG is drawn with
    canvas.draw()
    renderer = canvas.get_renderer()
    plot, = (ax for ax in fig.axes if ax.patches)
    area = plot.get_window_extent(renderer)
    labels = [t for ax in fig.axes for axis in (ax.yaxis,) for t in axis.get_ticklabels()
              if t.get_visible() and t.get_text()]
    assert len(labels) >= 25
    boxes = [t.get_window_extent(renderer) for t in labels]
    figure = fig.bbox
    assert area.width > 0.4 * figure.width  # the labels are wrapped, not the plot squeezed
    for i, box in enumerate(boxes):
        assert not _overlap(box, area), labels[i].get_text()
        assert figure.x0 <= box.x0 and box.x1 <= figure.x1, labels[i].get_text()
        for j in range(i):
            assert not _overlap(box, boxes[j]), (labels[i].get_text(), labels[j].get_text())
    # any text written inside the plot must keep clear of the bars and of other texts
    inside = [t.get_window_extent(renderer) for t in plot.texts if t.get_text().strip()]
    assert all(_overlap(box, area) and not any(_overlap(box, b) for b in boxes) for box in inside)
    bars = [p.get_window_extent(renderer) for p in plot.patches]
    for i, box in enumerate(inside):
        assert not any(_overlap(box, b) for b in bars)
        assert not any(_overlap(box, other) for other in inside[:i])


def test_the_chart_is_written_as_a_png(tmp_path):
    path = tornado_chart(tmp_path / "t.png", _scan(4), 25)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
