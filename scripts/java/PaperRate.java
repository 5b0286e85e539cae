import ai.mcts.MCTSOptions;
import ai.mcts.MCTSPlayer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Simulations per second of players of the paper authors' Java code (tpepels/mcts_gameframe,
 * which must be compiled on the class path) in Breakthrough, for issue 17's budget table
 * (`cli/src/paper_budget.rs`). This file is imcts's own; it builds each player from a label the
 * way that code's `SimGame` reads it (`mcts_s_h_ege0.1_det0.5_np10_im0.4`), as
 * `ImctsVsPaper.java` does.
 *
 * Usage: java -cp BUILD:. PaperRate MS ROUNDS LABEL...
 *
 * A label `kalah:LABEL` is the code's Kalah player of that label (`kalah:mcts_s_h_pd4_im0.3`),
 * measured from the Kalah start only (the code's `kalah.game.Board.initialize()`, four stones a
 * house, as `imcts search kalah`'s default position).
 *
 * Each round runs, for each position (the start, then the middle position
 * `8/1pp3p1/pppp1ppp/1p1p1p1p/1P1P1P1P/PPPP1PPP/P3P2P/8 w`) and each label in the order given,
 * one timed search of MS milliseconds from a fresh tree, so the labels are measured alternately
 * under the same machine load. A first round of 1 s searches warms the JIT and is not counted.
 * One line per search (`search <round> <position> <label> <sims> <ms> <sims/s>`), then per label
 * and position the median rate over the rounds (`median <position> <label> <sims/s>`).
 *
 * On a shared machine the absolute rates depend on the load; the ratio of two labels measured in
 * one run does much less. Issue 17 scales a label with a known idle rate (issue 12's table) by
 * the ratio measured here.
 */
public class PaperRate {
    static final String MIDDLE = "8/1pp3p1/pppp1ppp/1p1p1p1p/1P1P1P1P/PPPP1PPP/P3P2P/8 w";
    /** A label with this prefix (`kalah:mcts_s_h_pd4`) is a Kalah player, measured at the
     *  Kalah start (four stones a house) only. */
    static final String KALAH = "kalah:";

    /** The paper code's options for `label`, set as its SimGame.loadPlayer sets them. */
    static MCTSOptions options(String label, int ms) {
        String game = "breakthrough";
        if (label.startsWith(KALAH)) {
            game = "kalah";
            label = label.substring(KALAH.length());
        }
        String[] parts = label.split("_");
        if (!parts[0].equals("mcts"))
            throw new IllegalArgumentException("only mcts_... labels: " + label);
        MCTSOptions o = new MCTSOptions();
        o.debug = false;
        o.useHeuristics = false;
        o.solver = false;
        o.timeInterval = ms;
        o.setGame(game);
        for (int i = 1; i < parts.length; i++) {
            String t = parts[i];
            if (t.startsWith("pd")) { o.earlyEval = true; o.pdepth = Integer.parseInt(t.substring(2)); }
            else if (t.equals("h")) o.useHeuristics = true;
            else if (t.startsWith("im")) { o.implicitMM = true; o.imAlpha = Double.parseDouble(t.substring(2)); }
            else if (t.startsWith("det")) { o.detEnabled = true; o.detThreshold = Double.parseDouble(t.substring(3)); }
            else if (t.startsWith("ege")) { o.epsGreedyEval = true; o.egeEpsilon = Double.parseDouble(t.substring(3)); }
            else if (t.equals("s")) o.solver = true;
            else if (t.startsWith("np")) { o.nodePriors = true; o.nodePriorsVisits = Integer.parseInt(t.substring(2)); }
            else if (t.startsWith("efv")) o.efVer = Integer.parseInt(t.substring(3));
            else throw new IllegalArgumentException("tag not supported by this tool: " + t);
        }
        return o;
    }

    /** The paper code's board at `pos` (imcts's notation; "start" for the initial position). */
    static breakthrough.game.Board board(String pos) throws Exception {
        return board(pos, new breakthrough.game.Board());
    }

    /** `b` (a new board, or one of a subclass) set up at `pos` as in `board(pos)`. */
    static breakthrough.game.Board board(String pos, breakthrough.game.Board b) throws Exception {
        if (!pos.equals("start")) {
            String[] f = pos.split(" ");
            StringBuilder cells = new StringBuilder();
            // imcts's rank 8 is the code's row 0; 'P' is the code's 'w' (player 1), 'p' its 'b'.
            for (char c : f[0].toCharArray()) {
                if (c == '/') continue;
                if (Character.isDigit(c)) cells.append(".".repeat(c - '0'));
                else cells.append(c == 'P' ? 'w' : 'b');
            }
            // The code reads a custom position from these two private fields in initialize().
            java.lang.reflect.Field sb = breakthrough.game.Board.class.getDeclaredField("startingBoard");
            java.lang.reflect.Field sp = breakthrough.game.Board.class.getDeclaredField("startingPlayer");
            sb.setAccessible(true);
            sp.setAccessible(true);
            sb.set(b, cells.toString());
            sp.set(b, f[1].equals("w") ? 1 : 2);
            b.initialize();
            // initialize() ends by giving the move to player 1 whatever startingPlayer says, so
            // a position with Black to move needs the side set after it.
            java.lang.reflect.Field cur = breakthrough.game.Board.class.getDeclaredField("curPlayer");
            cur.setAccessible(true);
            cur.set(b, f[1].equals("w") ? 1 : 2);
            return b;
        }
        b.initialize();
        return b;
    }

    /** One timed search; returns {simulations, elapsed ms}. */
    static double[] search(String label, String pos, int ms) throws Exception {
        ai.framework.IBoard b;
        if (label.startsWith(KALAH)) {
            kalah.game.Board k = new kalah.game.Board();
            k.initialize();
            b = k;
        } else {
            b = board(pos);
        }
        MCTSOptions o = options(label, ms);
        MCTSPlayer p = new MCTSPlayer();
        p.setOptions(o);
        long t0 = System.nanoTime();
        p.getMove(b.copy(), null, b.getPlayerToMove(), false, null);
        double elapsed = (System.nanoTime() - t0) / 1e6;
        // The timed loop counts its simulations (one more than it ran) and stores
        // simulations + (int) (0.1 * simulations) in numSimulations.
        double sims = Math.round(o.numSimulations / 1.1) - 1;
        return new double[] {sims, elapsed};
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3)
            throw new IllegalArgumentException("usage: PaperRate MS ROUNDS LABEL...");
        int ms = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        List<String> labels = Arrays.asList(args).subList(2, args.length);
        String[] positions = {"start", MIDDLE};
        for (String l : labels)
            for (String pos : positions)
                if (!(l.startsWith(KALAH) && pos != positions[0]))
                    search(l, pos, 1000);
        List<List<List<Double>>> rates = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) {
            rates.add(new ArrayList<>());
            for (int j = 0; j < positions.length; j++)
                rates.get(i).add(new ArrayList<>());
        }
        for (int r = 0; r < rounds; r++)
            for (int j = 0; j < positions.length; j++)
                for (int i = 0; i < labels.size(); i++) {
                    if (labels.get(i).startsWith(KALAH) && j > 0)
                        continue;
                    double[] s = search(labels.get(i), positions[j], ms);
                    double rate = s[0] / (s[1] / 1000.0);
                    rates.get(i).get(j).add(rate);
                    System.out.printf("search %d %s %s %.0f %.0f %.0f%n", r, j == 0 ? "start" : "middle",
                            labels.get(i), s[0], s[1], rate);
                    System.out.flush();
                }
        for (int j = 0; j < positions.length; j++)
            for (int i = 0; i < labels.size(); i++) {
                List<Double> v = new ArrayList<>(rates.get(i).get(j));
                if (v.isEmpty())
                    continue;
                v.sort(null);
                int n = v.size();
                double med = n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
                System.out.printf("median %s %s %.0f%n", j == 0 ? "start" : "middle", labels.get(i), med);
            }
    }
}
