<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QObject</name>
    <message>
        <location filename="../ui/explore/ExploreView.cpp" line="+61"/>
        <source>Chip colour: the token&apos;s probability</source>
        <translation>色块颜色：该词元的概率</translation>
    </message>
    <message>
        <location filename="../ui/runs/RunsView.cpp" line="+117"/>
        <source>%1 (branch at step %2)</source>
        <translation>%1（在第 %2 步分支）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>strategy %1</source>
        <translation>策略 %1</translation>
    </message>
</context>
<context>
    <name>swb</name>
    <message>
        <location filename="../ui/explore/DistributionModel.cpp" line="+58"/>
        <source>top-k = %1</source>
        <translation>top-k = %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>top-p %1: %2 tokens, %3%</source>
        <translation>top-p %1：%2 个词元，%3%</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>min-p %1: threshold p ≥ %2, %3 tokens</source>
        <translation>min-p %1：阈值 p ≥ %2，%3 个词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>min-p %1: %2 tokens</source>
        <translation>min-p %1：%2 个词元</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>typical %1: %2 tokens, %3%</source>
        <translation>typical %1：%2 个词元，%3%</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 %2: %3 tokens</source>
        <translation>%1 %2：%3 个词元</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>top-nσ %1: %2 tokens</source>
        <translation>top-nσ %1：%2 个词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: %2 tokens, %3%</source>
        <translation>%1：%2 个词元，%3%</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>After stage %1 (%2)</source>
        <translation>第 %1 阶段之后（%2）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chose “%1”: raw p %2, final p %3, raw rank %4</source>
        <translation>选中“%1”：原始 p %2，最终 p %3，原始排名 %4</translation>
    </message>
</context>
<context>
    <name>swb::DistributionPlot</name>
    <message>
        <location filename="../ui/explore/DistributionPlot.cpp" line="+24"/>
        <source>&amp;Log scale</source>
        <translation>对数刻度(&amp;L)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show probabilities on a logarithmic axis, so the tail is visible.</source>
        <translation>在对数坐标轴上显示概率，以便看清长尾。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save the plot as PNG or PDF</source>
        <translation>将图表保存为 PNG 或 PDF</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>“%1” (id %2)
raw p %3
p %4%5</source>
        <translation>“%1”（id %2）
原始 p %3
p %4%5</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>
chosen</source>
        <translation>
已选中</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>
cut</source>
        <translation>
已截除</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All other tokens
raw mass %1
p %2</source>
        <translation>其余所有词元
原始概率质量 %1
p %2</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Generate, then select a step to see its distribution.</source>
        <translation>请先生成，然后选择一步以查看其分布。</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>kept (raw p)</source>
        <translation>保留（原始 p）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cut (raw p)</source>
        <translation>截除（原始 p）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>chosen</source>
        <translation>选中</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>p after the chain</source>
        <translation>经过链之后的 p</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>others</source>
        <translation>其他</translation>
    </message>
    <message>
        <location line="+44"/>
        <source> (beyond the bars shown)</source>
        <translation>（超出所示柱条的部分）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Branch with “%1” here</source>
        <translation>在此处以“%1”分支</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export as PNG or PDF…</source>
        <translation>导出为 PNG 或 PDF…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Export Plot</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
</context>
<context>
    <name>swb::ExploreView</name>
    <message>
        <location filename="../ui/explore/ExploreView.cpp" line="+51"/>
        <source>Cannot replay this step: %1</source>
        <translation>无法重放这一步：%1</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Type a prompt, then Generate (Ctrl+Return)</source>
        <translation>输入提示词，然后生成（Ctrl+Return）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>max </source>
        <translation>最多 </translation>
    </message>
    <message>
        <location line="+1"/>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+9"/>
        <source>&amp;Generate</source>
        <translation>生成(&amp;G)</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Generate from the prompt with this strategy (Ctrl+Return)</source>
        <translation>使用此策略根据提示词生成（Ctrl+Return）</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+9"/>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Stop generating (Esc)</source>
        <translation>停止生成（Esc）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>raw p</source>
        <translation>原始 p</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>final p</source>
        <translation>最终 p</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour tokens by their probability under the model&apos;s raw logits</source>
        <translation>按模型原始 logits 下的概率为词元着色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour tokens by their probability in the distribution the selector drew from</source>
        <translation>按选择器抽取时所用分布中的概率为词元着色</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Sampler</source>
        <translation>采样器</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Kept mass</source>
        <translation>保留的概率质量</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Each stage of the chain at this step; select one to see the distribution after it</source>
        <translation>此步中链的各个阶段；选择其中一个以查看其后的分布</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Colour by</source>
        <translation>着色依据</translation>
    </message>
    <message>
        <location line="+94"/>
        <source>Stop the generation before opening another model.</source>
        <translation>请先停止生成，再打开其他模型。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Loading cancelled.</source>
        <translation>已取消加载。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model loading cancelled.</source>
        <translation>已取消模型加载。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Loaded %1.</source>
        <translation>已加载 %1。</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Generating…</source>
        <translation>正在生成…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>0 / %1 tokens</source>
        <translation>0 / %1 个词元</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 / %2 tokens</source>
        <translation>%1 / %2 个词元</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>, %1 tok/s</source>
        <translation>，%1 tok/s</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 tokens · %2%3</source>
        <translation>%1 个词元 · %2%3</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Saved run %1 (%2 tokens, finished: %3).</source>
        <translation>已保存运行 %1（%2 个词元，结束原因：%3）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The run was not saved: %1</source>
        <translation>运行未保存：%1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Branching needs a finished, saved run.</source>
        <translation>分支需要一个已完成并已保存的运行。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This run came from another model; open that model to branch from it.</source>
        <translation>此运行来自另一个模型；请打开该模型以从中分支。</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>Run %1 · %2 tokens · %3</source>
        <translation>运行 %1 · %2 个词元 · %3</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Run %1 came from a model that is not loaded: its stored trace is shown, and what-if replay and branching need that model.</source>
        <translation>运行 %1 来自一个未加载的模型：此处显示其已存储的轨迹，而假设重放和分支需要该模型。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Strategy of run %1</source>
        <translation>运行 %1 的策略</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Select a token to see its step.</source>
        <translation>选择一个词元以查看其所在的步。</translation>
    </message>
    <message>
        <location line="+86"/>
        <source>&lt;b&gt;Step %1&lt;/b&gt;: drew “%2” — raw p %3, final p %4, %5 survivors</source>
        <translation>&lt;b&gt;第 %1 步&lt;/b&gt;：抽取了“%2”— 原始 p %3，最终 p %4，%5 个保留的词元</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&lt;br&gt;&lt;span style=&apos;color:#e06c00&apos;&gt;&lt;b&gt;What-if&lt;/b&gt; (edited chain, replayed on this step&apos;s logits): would draw “%1” — final p %2, %3 survivors&lt;/span&gt;</source>
        <translation>&lt;br&gt;&lt;span style=&apos;color:#e06c00&apos;&gt;&lt;b&gt;假设&lt;/b&gt;（编辑后的链，在此步的 logits 上重放）：将抽取“%1”— 最终 p %2，%3 个保留的词元&lt;/span&gt;</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&lt;br&gt;Stored trace (the run&apos;s model is not loaded).</source>
        <translation>&lt;br&gt;已存储的轨迹（该运行的模型未加载）。</translation>
    </message>
</context>
<context>
    <name>swb::InferenceWorker</name>
    <message>
        <location filename="../ui/explore/InferenceWorker.cpp" line="+52"/>
        <location line="+36"/>
        <source>No model is loaded.</source>
        <translation>未加载模型。</translation>
    </message>
</context>
<context>
    <name>swb::MainWindow</name>
    <message>
        <location filename="../ui/MainWindow.cpp" line="+26"/>
        <source>Sampling Workbench</source>
        <translation>采样工作台</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The run store cannot be used, so runs will not be saved: %1</source>
        <translation>无法使用运行存储，因此运行将不会被保存：%1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Explore</source>
        <translation>探索(&amp;E)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Compare</source>
        <translation>比较(&amp;C)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Compare strategies side by side</source>
        <translation>并排比较策略</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run two to four sampling strategies on the same prompts and rate their outputs blind, on a rubric and pairwise.</source>
        <translation>在相同的提示词上运行两到四种采样策略，并按评分量表和成对比较对其输出进行盲评。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Runs</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Re&amp;ports</source>
        <translation>报告(&amp;P)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>No ratings yet</source>
        <translation>尚无评分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Once outputs are rated, this view summarises each strategy: rubric means with confidence intervals, win rates, Bradley-Terry scores and automatic metrics, exportable as CSV.</source>
        <translation>对输出评分后，此视图会汇总每种策略：带置信区间的量表均值、胜率、Bradley-Terry 分数和自动指标，并可导出为 CSV。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open Model…</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Generation</source>
        <translation>生成(&amp;G)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About Sampling Workbench</source>
        <translation>关于采样工作台(&amp;A)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Open Model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Models (config.json *.gguf *.bin *.safetensors);;All files (*)</source>
        <translation>模型 (config.json *.gguf *.bin *.safetensors);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>About Sampling Workbench</source>
        <translation>关于采样工作台</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;h3&gt;Sampling Workbench %1&lt;/h3&gt;&lt;p&gt;Watch every decoding step of a real language model: the whole next-token distribution, each sampler&apos;s cut and the token drawn. Compare strategies side by side and rate them blind.&lt;/p&gt;&lt;p&gt;MIT licence.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;采样工作台 %1&lt;/h3&gt;&lt;p&gt;观察真实语言模型的每一个解码步：完整的下一词元分布、每个采样器的截断以及抽取的词元。并排比较策略，并对其进行盲评。&lt;/p&gt;&lt;p&gt;MIT 许可证。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>swb::ModelBar</name>
    <message>
        <location filename="../ui/explore/ModelBar.cpp" line="+30"/>
        <location line="+136"/>
        <source>No model</source>
        <translation>无模型</translation>
    </message>
    <message>
        <location line="-126"/>
        <source>Open Model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open a Hugging Face folder, a .gguf file or a llama2.c .bin checkpoint (or drop one on the window)</source>
        <translation>打开 Hugging Face 文件夹、.gguf 文件或 llama2.c .bin 检查点（也可将其拖放到窗口上）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Where the model runs; CUDA needs a CUDA build of libtorch (falls back to the CPU with a warning)</source>
        <translation>模型运行的位置；CUDA 需要 CUDA 版本的 libtorch（否则会回退到 CPU 并给出警告）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The dtype the model computes in</source>
        <translation>模型计算所用的 dtype</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>threads </source>
        <translation>线程 </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU threads for the model (auto: libtorch&apos;s default)</source>
        <translation>模型使用的 CPU 线程数（自动：libtorch 的默认值）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Open &amp;Folder…</source>
        <translation>打开文件夹(&amp;F)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open &amp;File…</source>
        <translation>打开文件(&amp;F)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Bundled Demo Model</source>
        <translation>内置演示模型(&amp;B)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Recent</source>
        <translation>最近使用</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Open Model Folder</source>
        <translation>打开模型文件夹</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Open Model File</source>
        <translation>打开模型文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Models (*.gguf *.bin config.json);;All files (*)</source>
        <translation>模型 (*.gguf *.bin config.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 · %2M parameters · %3 → %4 · %5 · context %6 · vocabulary %7</source>
        <translation>%1 · %2M 参数 · %3 → %4 · %5 · 上下文 %6 · 词表 %7</translation>
    </message>
</context>
<context>
    <name>swb::RunsView</name>
    <message>
        <location filename="../ui/runs/RunsView.cpp" line="-81"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Finish</source>
        <translation>结束原因</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>tok/s</source>
        <translation>tok/s</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Filter by prompt, output, strategy…</source>
        <translation>按提示词、输出、策略筛选…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Open in Explore</source>
        <translation>在探索中打开(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>The run store is not open.</source>
        <translation>运行存储未打开。</translation>
    </message>
    <message numerus="yes">
        <location line="+43"/>
        <source>%n run(s)</source>
        <translation>
            <numerusform>%n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Delete Run</source>
        <translation>删除运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Delete run %1 and every branch of it? This cannot be undone.</source>
        <translation>要删除运行 %1 及其所有分支吗？此操作无法撤销。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Deleted run %1.</source>
        <translation>已删除运行 %1。</translation>
    </message>
</context>
<context>
    <name>swb::StrategyEditor</name>
    <message>
        <location filename="../ui/explore/StrategyEditor.cpp" line="+114"/>
        <source>Preset…</source>
        <translation>预设…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Replace the chain with a built-in preset</source>
        <translation>用内置预设替换链</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Preset %1</source>
        <translation>预设 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Engine order</source>
        <translation>引擎顺序</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reorder the samplers the way an engine applies them (the selector stays last)</source>
        <translation>按引擎应用采样器的顺序重新排列（选择器保持在最后）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>As %1 applies them</source>
        <translation>按 %1 的应用顺序</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Order as %1</source>
        <translation>按 %1 排序</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Load a strategy saved in the run store</source>
        <translation>加载保存在运行存储中的策略</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Load %1</source>
        <translation>加载 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save this strategy under a name in the run store</source>
        <translation>以一个名称将此策略保存到运行存储中</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The seed of the strategy&apos;s random number generator: the same seed draws the same tokens</source>
        <translation>策略随机数生成器的种子：相同的种子会抽取相同的词元</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>New seed</source>
        <translation>新种子</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pick a random seed</source>
        <translation>随机选取一个种子</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Reorder</source>
        <translation>重新排序</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Move the sampler earlier</source>
        <translation>将采样器前移</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Move the sampler later</source>
        <translation>将采样器后移</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>C&amp;hain</source>
        <translation>链(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;JSON</source>
        <translation>JSON(&amp;J)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Seed %1</source>
        <translation>种子 %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Saved strategies…</source>
        <translation>已保存的策略…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The run store is not open, so the strategy cannot be saved.</source>
        <translation>运行存储未打开，因此无法保存策略。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Save Strategy</source>
        <translation>保存策略</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Name %1</source>
        <translation>命名为 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Saved strategy “%1”.</source>
        <translation>已保存策略“%1”。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Set strategy</source>
        <translation>设置策略</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>JSON: %1 at offset %2.</source>
        <translation>JSON：%1（位于偏移量 %2）。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Edit JSON</source>
        <translation>编辑 JSON</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Set %1.%2</source>
        <translation>设置 %1.%2</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Add %1</source>
        <translation>添加 %1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Remove %1</source>
        <translation>移除 %1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Move %1</source>
        <translation>移动 %1</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Select a sampler to edit its parameters.</source>
        <translation>选择一个采样器以编辑其参数。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2 &lt;i&gt;(%3)&lt;/i&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — %2 &lt;i&gt;（%3）&lt;/i&gt;</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>%1: write a JSON list or object.</source>
        <translation>%1：请写入一个 JSON 列表或对象。</translation>
    </message>
</context>
<context>
    <name>swb::TimelinePlot</name>
    <message>
        <location filename="../ui/explore/TimelinePlot.cpp" line="+29"/>
        <location line="+25"/>
        <source>survivors</source>
        <translation>保留的词元</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>entropy (nats)</source>
        <translation>熵（nats）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>chosen p</source>
        <translation>选中的 p</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>raw entropy</source>
        <translation>原始熵</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>final entropy</source>
        <translation>最终熵</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>chosen raw p</source>
        <translation>选中的原始 p</translation>
    </message>
</context>
<context>
    <name>swb::TokenStreamView</name>
    <message>
        <location filename="../ui/explore/TokenStreamView.cpp" line="+32"/>
        <source>Generated tokens</source>
        <translation>生成的词元</translation>
    </message>
    <message>
        <location line="+130"/>
        <source>Generated tokens appear here, coloured by probability.</source>
        <translation>生成的词元会显示在这里，并按概率着色。</translation>
    </message>
    <message>
        <location line="+83"/>
        <source>&amp;Branch from step %1 with</source>
        <translation>从第 %1 步分支，改选(&amp;B)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>“%1”  raw p %2%3</source>
        <translation>“%1”  原始 p %2%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>  (chosen)</source>
        <translation>  （已选中）</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Step %1: “%2” (id %3)
raw p %4 · final p %5
raw rank %6
entropy raw %7 · final %8 nats</source>
        <translation>第 %1 步：“%2”（id %3）
原始 p %4 · 最终 p %5
原始排名 %6
熵：原始 %7 · 最终 %8 nats</translation>
    </message>
</context>
</TS>
